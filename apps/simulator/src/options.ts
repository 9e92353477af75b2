import { parseArgs } from 'node:util';
import { VIDEO_CODEC_NAMES, type VideoCodecName } from '@intercom/contract';
import { ffmpegH264Available } from './ffmpegH264.js';
import { SIM_ACCOUNT } from './simAccount.js';
import { DEFAULT_VIDEO, type H264Source, type VideoSetup } from './videoPublisher.js';

export interface SimulatorOptions {
  url: string;
  terminals: number;
  /** Users made beside the fleet and put in its first channel, with no simulated terminal: for a person's phone (the field app). */
  spareUsers?: number | undefined;
  /** Company code of the enterprise the users belong to. */
  enterprise: string;
  /** The administrator who sets the simulator's own account up when it is missing. */
  account: string;
  password: string | undefined;
  /** The console account the simulator works with (the CLI's default `simulator`); absent or `account`'s name: work as that. */
  simAccount?: string | undefined;
  /** Its password (default: derived from `password`, see simAccount.ts). */
  simPassword?: string | undefined;
  terminalPassword: string;
  /** Seconds between reports; undefined: what the server's configuration says. */
  interval: number | undefined;
  osmand: boolean;
  centre: { lat: number; lon: number };
  radiusKm: number;
  /** False: the terminals never stop at a waypoint, so every one of them moves at every report (absent: they stop now and then). */
  stops?: boolean;
  phoneStart: string;
  /** Seconds to run; 0 runs until Ctrl-C. */
  duration: number;
  /** Chance of an SOS per report. */
  sosRate: number;
  /** Lone worker: the enterprise's check-in period set at start (minutes; 0 leaves the settings alone). */
  checkInMinutes?: number;
  /** Chance that the fleet's first terminal lets a check-in pass unanswered (the others always answer). */
  missCheckIns?: number;
  /** Every terminal publishes a JPEG test stream (VideoEnable and a video channel are set up for them). */
  video?: VideoSetup | undefined;
  /** With `video`, only the first this many terminals have a camera (absent: all of them). */
  videoTerminals?: number | undefined;
  /** Push-to-talk: mean seconds between one terminal's bursts; 0: the terminals never talk. */
  talkEvery: number;
  /** Terminals per simulated channel. */
  talkGroup: number;
  /** Seconds each terminal spends out of coverage in every 4 times that (0: always covered). */
  tunnelSeconds?: number;
  /** Turn recording on (enterprise RecordEnable and the channels' switch). */
  record: boolean;
  quiet: boolean;
}

export const USAGE = `Usage: npm run simulate -- [options]

  --terminals N          simulated terminals (default 10)
  --spare-users N        N more users (phones after the fleet's, same password) in the first
                         channel but not simulated: a person signs in with one (default 0)
  --url URL              server (default http://localhost:8080)
  --enterprise CODE      company code of their enterprise (default DEMO)
  --account NAME         administrator that creates the simulator's console account when it is
                         missing, once: that logs this account's console session out (default admin)
  --password PW          its password (default: $SIM_ADMIN_PASSWORD, else $ADMIN_PASSWORD)
  --sim-account NAME     console account the simulator sets up the users, channels and settings
                         with, so nobody's console session is ended (default simulator; the
                         --account name: work as that account, which signs its console out)
  --sim-password PW      its password (default: $SIM_PASSWORD, else derived from --password)
  --terminal-password PW password of the simulated users (default Sim#2026)
  --interval S           seconds between reports (default: the server's configuration)
  --osmand               report over OsmAnd HTTP instead of the /terminal WebSocket
  --centre LAT,LON       centre of the area they move in (default 22.5431,114.0579)
  --radius KM            radius of that area (default 3)
  --no-stops             the terminals never pause at a waypoint (by default one waypoint in five
                         is a stop of 10-60 s): every terminal moves at every report
  --phone-start DIGITS   phone of the first user; the others count up (default 19900000000)
  --duration S           stop after S seconds (default 0: run until Ctrl-C)
  --sos-rate P           chance of an SOS per report (default 0.0005); the terminal then speaks in
                         its emergency call every few seconds, answers the dispatcher, and hangs
                         up after a minute without a dispatcher's words
  --check-in M           lone worker: set the enterprise's check-in period to M minutes (grace 1)
                         at start when it has no whole-enterprise safety setting yet (one a
                         person made stays); every terminal answers checkInDue (default 0: leave it)
  --miss-check-ins P     chance that the first terminal lets a check-in pass unanswered, raising a
                         LoneWorker alarm (default 0.3)
  --video                every terminal can be watched: a JPEG test stream with a clock, sent
                         only while a dispatcher watches (puts the users in the channel
                         "Simulated video"; turns the enterprise's VideoEnable on at its first setup)
  --video-codec C        jpeg (the drawn picture with a clock, default) or h264 (see --video-encoder)
  --video-encoder E      for h264: ffmpeg (the drawn picture encoded live by ffmpeg's libx264 with
                         zero-latency settings, a key frame every second) or clip (a 320x240 clip
                         of ffmpeg's test source, looped); default ffmpeg when it is installed
  --video-terminals N    with --video, only the first N terminals have a camera (default all)
  --video-fps N          frames a second of that stream (default 10)
  --video-size WxH       the drawn picture's size (default 320x240)
  --talk-every S         push-to-talk: each terminal speaks a burst of real Opus speech (about 2 s)
                         every S seconds on average (default 60; 0: never talk)
  --talk-group N         terminals per channel; the simulator makes channels "Sim <phone>" of N
                         users each and every terminal joins its own (default 10)
  --tunnel S             every S*4 seconds each terminal drives through a tunnel for S seconds: it
                         keeps its fixes and sends them as positions batches when back (default 0)
  --record               the channels it makes record and, at the enterprise's first setup (when
                         the simulator's account is made), RecordEnable and the existing channels'
                         switch are turned on: every burst appears in the recording history.
                         Later runs leave the switches as a person set them
  --quiet                no progress lines`;

function isVideoCodecName(text: string): text is VideoCodecName {
  return (VIDEO_CODEC_NAMES as readonly string[]).includes(text);
}

function number(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

/** Parses the command line (and the admin password from the environment). Throws with a readable message. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SimulatorOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      terminals: { type: 'string' },
      'spare-users': { type: 'string' },
      enterprise: { type: 'string' },
      account: { type: 'string' },
      password: { type: 'string' },
      'sim-account': { type: 'string' },
      'sim-password': { type: 'string' },
      'terminal-password': { type: 'string' },
      interval: { type: 'string' },
      osmand: { type: 'boolean' },
      centre: { type: 'string' },
      center: { type: 'string' },
      radius: { type: 'string' },
      'no-stops': { type: 'boolean' },
      'phone-start': { type: 'string' },
      duration: { type: 'string' },
      'sos-rate': { type: 'string' },
      'check-in': { type: 'string' },
      'miss-check-ins': { type: 'string' },
      video: { type: 'boolean' },
      'video-codec': { type: 'string' },
      'video-fps': { type: 'string' },
      'video-size': { type: 'string' },
      'video-encoder': { type: 'string' },
      'video-terminals': { type: 'string' },
      'talk-every': { type: 'string' },
      'talk-group': { type: 'string' },
      tunnel: { type: 'string' },
      record: { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
    strict: true,
  });
  const centreText = values.centre ?? values.center ?? '22.5431,114.0579';
  const [lat, lon] = centreText.split(',').map((part) => Number(part.trim()));
  if (lat === undefined || lon === undefined || !(Math.abs(lat) <= 85) || !(Math.abs(lon) <= 180)) {
    throw new Error('--centre must be LAT,LON (for example 22.5431,114.0579)');
  }
  const phoneStart = values['phone-start'] ?? '19900000000';
  if (!/^\d{3,18}$/.test(phoneStart)) throw new Error('--phone-start must be 3-18 digits');
  const size = /^(\d{2,4})x(\d{2,4})$/.exec(values['video-size'] ?? `${DEFAULT_VIDEO.width}x${DEFAULT_VIDEO.height}`);
  const [width, height] = [Number(size?.[1]), Number(size?.[2])];
  if (!size || width < 16 || height < 16 || width > 1920 || height > 1080 || width % 8 || height % 8) {
    throw new Error('--video-size must be WxH, multiples of 8 from 16x16 to 1920x1080 (for example 320x240)');
  }
  const codec = values['video-codec'] ?? DEFAULT_VIDEO.codec;
  if (!isVideoCodecName(codec)) throw new Error('--video-codec must be jpeg or h264');
  const encoder = values['video-encoder'];
  if (encoder !== undefined && encoder !== 'ffmpeg' && encoder !== 'clip') {
    throw new Error('--video-encoder must be ffmpeg or clip');
  }
  if (encoder === 'ffmpeg' && !ffmpegH264Available()) {
    throw new Error('--video-encoder ffmpeg needs ffmpeg with libx264 on the PATH (Debian: apt-get install ffmpeg)');
  }
  const h264: H264Source | undefined =
    codec !== 'h264' ? undefined : (encoder ?? (ffmpegH264Available() ? 'ffmpeg' : 'clip'));
  const video = values.video
    ? {
        codec,
        ...(h264 ? { h264 } : {}),
        fps: number('video-fps', values['video-fps'], DEFAULT_VIDEO.fps, 1, 30),
        width,
        height,
      }
    : undefined;
  const simAccount = values['sim-account'] ?? SIM_ACCOUNT;
  if (simAccount.trim() === '' || simAccount.length > 64) throw new Error('--sim-account must be 1-64 characters');
  const url = (values.url ?? 'http://localhost:8080').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Error('--url must start with http:// or https://');
  return {
    url,
    terminals: number('terminals', values.terminals, 10, 1, 100_000),
    spareUsers: Math.round(number('spare-users', values['spare-users'], 0, 0, 100)),
    enterprise: values.enterprise ?? 'DEMO',
    account: values.account ?? 'admin',
    password: values.password ?? env.SIM_ADMIN_PASSWORD ?? env.ADMIN_PASSWORD,
    simAccount,
    simPassword: values['sim-password'] ?? env.SIM_PASSWORD,
    terminalPassword: values['terminal-password'] ?? 'Sim#2026',
    interval: values.interval === undefined ? undefined : number('interval', values.interval, 5, 0.05, 86_400),
    osmand: values.osmand ?? false,
    centre: { lat, lon },
    radiusKm: number('radius', values.radius, 3, 0.01, 1000),
    stops: !(values['no-stops'] ?? false),
    phoneStart,
    duration: number('duration', values.duration, 0, 0, 365 * 86_400),
    sosRate: number('sos-rate', values['sos-rate'], 0.0005, 0, 1),
    checkInMinutes: Math.round(number('check-in', values['check-in'], 0, 0, 720)),
    missCheckIns: number('miss-check-ins', values['miss-check-ins'], 0.3, 0, 1),
    video,
    videoTerminals:
      values['video-terminals'] === undefined
        ? undefined
        : Math.round(number('video-terminals', values['video-terminals'], 1, 1, 100_000)),
    talkEvery: number('talk-every', values['talk-every'], 60, 0, 86_400),
    talkGroup: Math.round(number('talk-group', values['talk-group'], 10, 1, 5_000)),
    tunnelSeconds: number('tunnel', values.tunnel, 0, 0, 86_400),
    record: values.record ?? false,
    quiet: values.quiet ?? false,
  };
}

/** Phone i of the fleet: the start number plus i, keeping its width (leading zeros). */
export function phoneOf(start: string, index: number): string {
  return (BigInt(start) + BigInt(index)).toString().padStart(start.length, '0');
}
