import { speechPackets } from '@intercom/media';
import {
  SIM_VIDEO_CHANNEL,
  adminLogout,
  apiCall,
  ensureTalkChannels,
  ensureUsers,
  ensureVideoChannel,
  postForm,
  saveCheckIns,
} from './adminApi.js';
import { SimDevice } from './device.js';
import { seededRandom } from './movement.js';
import type { SimulatorOptions } from './options.js';
import { OSMAND_DEFAULT_INTERVAL, OsmandReporter } from './osmandReporter.js';
import { FleetStats } from './stats.js';
import { LoginGate } from './loginGate.js';
import { simulatorSession } from './simAccount.js';
import { SimTerminal } from './terminal.js';
import type { TunnelSetup } from './fixBacklog.js';

export interface Fleet {
  stats: FleetStats;
  stop(): Promise<void>;
}

/** Logged once the users, channels and settings exist and the setup's console session has ended (scripts/start.mjs waits for it). */
export const FLEET_READY = 'setup done, console session ended';
/** Logged with the phones of `--spare-users` (scripts/start.mjs prints the first for the field app). */
export const SPARE_USERS = 'spare users, not simulated:';

/** First logins in flight at once: each costs the server one scrypt verification (see LoginGate). */
const LOGINS_AT_ONCE = 2;

/** Creates or reuses the users, then starts one simulated terminal (or OsmAnd tracker) per user. */
export async function startFleet(options: SimulatorOptions, log: (line: string) => void): Promise<Fleet> {
  // Its own console account: a person signed in as the administrator stays signed in.
  const session = await simulatorSession(options, log);
  const { token, firstSetup: seed } = session;
  const users = await ensureUsers(options.url, token, {
    count: options.terminals + (options.spareUsers ?? 0),
    phoneStart: options.phoneStart,
    password: options.terminalPassword,
    log,
  });
  const spare = users.splice(options.terminals);
  const cameras = options.video ? users.slice(0, options.videoTerminals ?? users.length) : [];
  if (options.video) {
    await ensureVideoChannel(
      options.url,
      token,
      cameras.map((u) => u.UserID),
      seed,
    );
    const { codec, h264 } = options.video;
    const source = codec === 'h264' ? `H.264 (${h264 === 'ffmpeg' ? 'ffmpeg, live' : 'the looped clip'})` : 'JPEG';
    log(
      `video: VideoEnable ${seed ? 'on' : 'as the enterprise has it'}, ${cameras.length} users with a camera (${source}) in channel "${SIM_VIDEO_CHANNEL}"`,
    );
  }
  const checkInMinutes = options.checkInMinutes ?? 0;
  if (checkInMinutes > 0) {
    const saved = await saveCheckIns(options.url, token, checkInMinutes);
    const setting = saved ? `a check-in every ${checkInMinutes} min` : 'the enterprise keeps its safety setting';
    log(`lone worker: ${setting}; ${users[0]?.phone} lets some pass`);
  }
  const talking = options.talkEvery > 0 && !options.osmand;
  const channels = talking
    ? await ensureTalkChannels(options.url, token, users, {
        groupSize: options.talkGroup,
        record: options.record,
        seed,
        log,
      })
    : new Map<string, number>();
  const firstChannel = channels.get(users[0]?.phone ?? '');
  if (spare.length > 0 && firstChannel) {
    const uids = spare.map((u) => u.UserID).join(',');
    await apiCall(
      options.url,
      token,
      '/api/THChannel/CMemberChange',
      postForm({ cid: String(firstChannel), action: 'add', uids }),
    );
  }
  if (spare.length > 0) log(`${SPARE_USERS} ${spare.map((u) => u.phone).join(', ')}`);
  // The setup is done: its session ends (the demo prints the admin's login now).
  await adminLogout(options.url, token).catch((error: unknown) =>
    log(`logout of "${session.account}" failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  log(FLEET_READY);
  // One short phrase of real speech (packages/media fixtures), shared by every terminal: its bursts
  // in channels, and its words in its emergency calls.
  const packets = speechPackets('unit-three');
  const stats = new FleetStats();
  const stops: (() => Promise<void> | void)[] = [];
  const logins = new LoginGate(LOGINS_AT_ONCE);
  for (const [i, user] of users.entries()) {
    const device = new SimDevice(
      options.centre,
      options.radiusKm,
      seededRandom(Number(BigInt(user.phone) % 2_147_483_647n)),
      options.sosRate,
      options.stops ?? true,
    );
    if (options.osmand) {
      const reporter = new OsmandReporter(
        options.url,
        user.phone,
        device,
        stats,
        options.interval ?? OSMAND_DEFAULT_INTERVAL,
      );
      reporter.start();
      stops.push(() => reporter.stop());
    } else {
      const terminal = new SimTerminal({
        url: options.url,
        phone: user.phone,
        password: options.terminalPassword,
        device,
        stats,
        interval: options.interval,
        ...(options.tunnelSeconds ? { tunnel: tunnelOf(options.tunnelSeconds, seededRandom(i + 7)) } : {}),
        ...(options.video && i < cameras.length ? { video: options.video } : {}),
        log,
        speech: packets,
        checkIns: {
          // One worker of the fleet lets check-ins pass now and then: the LoneWorker alarm to see.
          missRate: i === 0 ? (options.missCheckIns ?? 0) : 0,
          maxDelayMs: Math.min(5, options.interval ?? 5) * 1000,
          random: seededRandom(Number(BigInt(user.phone) % 2_147_483_645n) + 2),
        },
        ...(talking
          ? {
              talk: {
                cid: channels.get(user.phone) ?? 0,
                everySeconds: options.talkEvery,
                packets,
                stats,
                random: seededRandom(Number(BigInt(user.phone) % 2_147_483_646n) + 1),
              },
            }
          : {}),
      });
      // Its first login takes its turn (a password login: scrypt on the server); later ones resume.
      void logins.run(() => {
        terminal.start();
        return terminal.firstLogin;
      });
      stops.push(() => terminal.stop());
    }
  }
  log(
    `${users.length} ${options.osmand ? 'OsmAnd trackers' : 'terminals'} starting around ${options.centre.lat},${options.centre.lon} (phones ${users[0]?.phone}..${users.at(-1)?.phone})`,
  );
  return {
    stats,
    async stop() {
      await Promise.all(stops.map(async (stop) => stop()));
    },
  };
}

/** A tunnel of `seconds` every 4 times that, entered at a different moment by each terminal. */
function tunnelOf(seconds: number, random: () => number): TunnelSetup {
  return { seconds, everySeconds: seconds * 4, offsetMs: random() * seconds * 4000 };
}
