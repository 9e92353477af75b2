import { speechPackets } from '@intercom/media';
import {
  SIM_VIDEO_CHANNEL,
  adminLogin,
  adminLogout,
  ensureTalkChannels,
  ensureUsers,
  ensureVideoChannel,
  saveCheckIns,
} from './adminApi.js';
import { SimDevice } from './device.js';
import { seededRandom } from './movement.js';
import type { SimulatorOptions } from './options.js';
import { OSMAND_DEFAULT_INTERVAL, OsmandReporter } from './osmandReporter.js';
import { FleetStats } from './stats.js';
import { SimTerminal } from './terminal.js';
import type { TunnelSetup } from './fixBacklog.js';

export interface Fleet {
  stats: FleetStats;
  stop(): Promise<void>;
}

/** Logged once the users, channels and settings exist and the admin session has ended (scripts/start.mjs waits for it). */
export const FLEET_READY = 'setup done, admin session ended';

/** Logins are spread out: each costs the server one scrypt verification. */
const LOGINS_PER_SECOND = 20;

/** Creates or reuses the users, then starts one simulated terminal (or OsmAnd tracker) per user. */
export async function startFleet(options: SimulatorOptions, log: (line: string) => void): Promise<Fleet> {
  if (!options.password)
    throw new Error('the admin password is needed to create users: --password, SIM_ADMIN_PASSWORD or ADMIN_PASSWORD');
  const token = await adminLogin(options.url, options.account, options.password, options.enterprise);
  const users = await ensureUsers(options.url, token, {
    count: options.terminals,
    phoneStart: options.phoneStart,
    password: options.terminalPassword,
    log,
  });
  const cameras = options.video ? users.slice(0, options.videoTerminals ?? users.length) : [];
  if (options.video) {
    await ensureVideoChannel(
      options.url,
      token,
      cameras.map((u) => u.UserID),
    );
    const { codec, h264 } = options.video;
    const source = codec === 'h264' ? `H.264 (${h264 === 'ffmpeg' ? 'ffmpeg, live' : 'the looped clip'})` : 'JPEG';
    log(`video: VideoEnable on, ${cameras.length} users with a camera (${source}) in channel "${SIM_VIDEO_CHANNEL}"`);
  }
  const checkInMinutes = options.checkInMinutes ?? 0;
  if (checkInMinutes > 0) {
    await saveCheckIns(options.url, token, checkInMinutes);
    log(`lone worker: a check-in every ${checkInMinutes} min; ${users[0]?.phone} lets some pass`);
  }
  const talking = options.talkEvery > 0 && !options.osmand;
  const channels = talking
    ? await ensureTalkChannels(options.url, token, users, { groupSize: options.talkGroup, record: options.record, log })
    : new Map<string, number>();
  // The setup is done: the account is the administrator's again (the demo prints its login now).
  await adminLogout(options.url, token).catch((error: unknown) =>
    log(`admin logout failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  log(FLEET_READY);
  // One short phrase of real speech (packages/media fixtures), shared by every terminal.
  const packets = talking ? speechPackets('unit-three') : [];
  const stats = new FleetStats();
  const stops: (() => Promise<void> | void)[] = [];
  for (const [i, user] of users.entries()) {
    const device = new SimDevice(
      options.centre,
      options.radiusKm,
      seededRandom(Number(BigInt(user.phone) % 2_147_483_647n)),
      options.sosRate,
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
      setTimeout(() => terminal.start(), (i / LOGINS_PER_SECOND) * 1000).unref();
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
