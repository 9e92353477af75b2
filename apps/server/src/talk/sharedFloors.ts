import { randomInt } from 'node:crypto';
import { CALL_ID_BASE } from '@intercom/contract';
import type { Redis } from 'ioredis';
import type { Scope } from '../tenancy/scope.js';
import {
  IDLE,
  stepFloor,
  type FloorEffect,
  type FloorEvent,
  type FloorLimits,
  type FloorState,
  type Talker,
} from './floorMachine.js';

/**
 * A floor as every instance sees it: the state, the fencing token of its holder (the version at
 * which the holder was granted; 0 when idle) and the version of the last write.
 */
export interface SharedFloor {
  state: FloorState;
  token: number;
  version: number;
}

/** One transition of a shared floor; `changed` is false when it wrote nothing (busy, granted again). */
export interface FloorNote extends SharedFloor {
  cid: number;
  effects: FloorEffect[];
  changed: boolean;
}

/** A private call between instances: offered to the callee's instance, answered, ended by either side. */
export type CallSignal =
  | {
      kind: 'offer';
      cid: number;
      uid: number;
      from: Talker;
      E_ID: number;
      /** A dispatcher seat's scope; null: a terminal, which calls users of its own enterprise. */
      scope: Scope | null;
      record: boolean;
      maxTalkMs: number;
    }
  | { kind: 'answer'; cid: number; ok: boolean }
  | { kind: 'end'; cid: number }
  /**
   * An emergency call the terminal's instance opened (emergencyCalls.ts): every instance offers it
   * to its seats whose scope holds E_ID. Ended like a call, by `end`.
   */
  | { kind: 'emergency'; cid: number; from: Talker; E_ID: number; record: boolean; maxTalkMs: number };

/** The signals of private calls between two parties (RemoteCalls). */
export type PrivateCallSignal = Exclude<CallSignal, { kind: 'emergency' }>;

export interface SharedFloorsOptions {
  /** A floor held by an instance that stops renewing it is idle after this long. */
  leaseMs: number;
}

/**
 * Long enough that an instance whose event loop stalls for 2 s (a GC pause, a busy tick) keeps its
 * floors: it renews every `leaseMs / LEASE_STEPS`, so a stall of 2 s leaves 1.5 s of lease. Short
 * enough that a floor whose instance froze or died is idle elsewhere within `leaseMs` plus one check.
 */
export const DEFAULT_LEASE_MS = 4_000;
/** The holder's instance renews, and the others check, every `leaseMs / LEASE_STEPS` (500 ms by default). */
export const LEASE_STEPS = 8;

/*
 * Compare-and-set of one floor. KEYS: version counter, floor. ARGV: expected version, the new
 * value (`<token>|<state JSON>`, empty for idle), lease ms. The counter never expires, so versions
 * (and with them fencing tokens) only grow, even when an expired floor starts again from idle.
 */
const CAS = `
local current = redis.call('GET', KEYS[1]) or '0'
if current ~= ARGV[1] then return -1 end
local version = redis.call('INCR', KEYS[1])
if ARGV[2] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
if ARGV[4] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return version`;

/* Extends the lease only while the floor is still held under token ARGV[1]. */
const RENEW = `
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

const AUDIO = 1;
const NOTE = 2;
const CALL = 3;
/** A call's version counter outlives the call by this long (a channel's never expires). */
const CALL_VERSION_TTL_MS = 86_400_000;
/** type u8 · origin u32 · token u32, then the downstream frame. */
const AUDIO_HEADER = 9;
/** type u8 · origin u32, then the note as JSON. */
const NOTE_HEADER = 5;
const MAX_RETRIES = 20;

type RedisWithScripts = Redis & {
  floorCas(ver: string, floor: string, expected: string, value: string, ttl: number, verTtl: number): Promise<number>;
  floorRenew(floor: string, token: string, ttl: number): Promise<number>;
};

export interface SharedFloorHandlers {
  /** A floor transition made on another instance. */
  note(note: FloorNote): void;
  /** A downstream frame relayed by another instance under fencing token `token`. */
  audio(token: number, frame: Buffer): void;
  call(signal: CallSignal): void;
  error(error: unknown, context: string): void;
}

/**
 * Floors and audio shared by all instances through Redis (DESIGN.md sections 7 and 9). Each
 * channel's floor is one key holding its state as floorMachine.ts defines it, written only by
 * compare-and-set on a version counter, so two instances can never both grant: the one whose
 * write lands second re-reads and sees the floor taken. The key carries a lease that the holder's
 * instance renews; when that instance dies the floor expires to idle. Audio frames and floor
 * notes travel on one pub/sub channel from one connection, so a listener elsewhere receives a
 * burst's last frames before the floorIdle that follows them.
 */
export class SharedFloors {
  /** This instance on the channel: messages it published itself are skipped. */
  readonly origin = randomInt(1, 0xffff_ffff);
  private readonly channel: string;

  private constructor(
    private readonly redis: RedisWithScripts,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    readonly options: SharedFloorsOptions,
    private readonly handlers: SharedFloorHandlers,
  ) {
    this.channel = `${prefix}:talk`;
    redis.on('error', (error) => handlers.error(error, 'talk redis'));
    subscriber.on('error', (error) => handlers.error(error, 'talk redis subscriber'));
    subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => this.receive(message));
  }

  /** Uses `client` for commands and a duplicate of it to subscribe; closes both. */
  static async connect(
    client: Redis,
    prefix: string,
    options: SharedFloorsOptions,
    handlers: SharedFloorHandlers,
  ): Promise<SharedFloors> {
    const redis = client as RedisWithScripts;
    redis.defineCommand('floorCas', { numberOfKeys: 2, lua: CAS });
    redis.defineCommand('floorRenew', { numberOfKeys: 1, lua: RENEW });
    const subscriber = redis.duplicate();
    const floors = new SharedFloors(redis, subscriber, prefix, options, handlers);
    await subscriber.subscribe(floors.channel);
    return floors;
  }

  async read(cid: number): Promise<SharedFloor> {
    const [version, value] = await this.redis.mget(this.versionKey(cid), this.floorKey(cid));
    return parseFloor(Number(version ?? 0), value ?? null);
  }

  /**
   * Applies `event` to the shared floor of `cid` (re-reading and retrying when another instance
   * wrote in between). `adjust` lets the holder's instance bring in what only it knows (the time
   * of its last audio frame) before the machine runs.
   */
  async step(
    cid: number,
    event: FloorEvent,
    limits: FloorLimits,
    adjust: (floor: SharedFloor) => FloorState,
  ): Promise<FloorNote> {
    for (let attempt = 0; attempt < MAX_RETRIES; attempt += 1) {
      const floor = await this.read(cid);
      const current = adjust(floor);
      const { state, effects } = stepFloor(current, event, limits);
      // The machine returns the very same state object when an event changes nothing.
      if (state === current) return { cid, ...floor, effects, changed: false };
      const newHolder =
        state.name !== 'idle' && (floor.state.name === 'idle' || floor.state.holder.key !== state.holder.key);
      const token = state.name === 'idle' ? 0 : newHolder ? floor.version + 1 : floor.token;
      const value = state.name === 'idle' ? '' : `${token}|${JSON.stringify(state)}`;
      const version = await this.redis.floorCas(
        this.versionKey(cid),
        this.floorKey(cid),
        String(floor.version),
        value,
        this.options.leaseMs,
        cid >= CALL_ID_BASE ? CALL_VERSION_TTL_MS : 0,
      );
      if (version >= 0) return { cid, state, token, version, effects, changed: true };
    }
    throw new Error(`floor ${cid}: too many concurrent writers`);
  }

  /** A call id no instance has used: calls get theirs from one counter once floors are shared. */
  async nextCallId(): Promise<number> {
    const n = await this.redis.incr(`${this.prefix}:talk:call-id`);
    return CALL_ID_BASE + (n % 0x7fff_ffff);
  }

  /** Extends the holder's lease; false when the floor is no longer held under `token`. */
  async renew(cid: number, token: number): Promise<boolean> {
    return (await this.redis.floorRenew(this.floorKey(cid), String(token), this.options.leaseMs)) === 1;
  }

  publishNote(note: FloorNote): void {
    this.publishJson(NOTE, note);
  }

  publishCall(signal: CallSignal): void {
    this.publishJson(CALL, signal);
  }

  private publishJson(type: number, value: unknown): void {
    const json = Buffer.from(JSON.stringify(value));
    const message = Buffer.allocUnsafe(NOTE_HEADER + json.length);
    message[0] = type;
    message.writeUInt32BE(this.origin, 1);
    json.copy(message, NOTE_HEADER);
    this.publish(message);
  }

  /** One downstream frame for listeners on other instances (one copy with a 9-byte header). */
  publishAudio(token: number, frame: Buffer): void {
    const message = Buffer.allocUnsafe(AUDIO_HEADER + frame.length);
    message[0] = AUDIO;
    message.writeUInt32BE(this.origin, 1);
    message.writeUInt32BE(token, 5);
    frame.copy(message, AUDIO_HEADER);
    this.publish(message);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.quit(), this.redis.quit()]);
  }

  /** Drops both connections without a goodbye, as a crashed instance would (tests). */
  disconnect(): void {
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  private publish(message: Buffer): void {
    this.redis.publish(this.channel, message).catch((error: unknown) => this.handlers.error(error, 'talk publish'));
  }

  private receive(message: Buffer): void {
    if (message.length < NOTE_HEADER || message.readUInt32BE(1) === this.origin) return;
    try {
      if (message[0] === AUDIO && message.length > AUDIO_HEADER) {
        this.handlers.audio(message.readUInt32BE(5), message.subarray(AUDIO_HEADER));
      } else if (message[0] === NOTE) {
        this.handlers.note(JSON.parse(message.subarray(NOTE_HEADER).toString()) as FloorNote);
      } else if (message[0] === CALL) {
        this.handlers.call(JSON.parse(message.subarray(NOTE_HEADER).toString()) as CallSignal);
      }
    } catch (error) {
      this.handlers.error(error, 'talk message from another instance');
    }
  }

  private versionKey(cid: number): string {
    return `${this.prefix}:talk:floor-version:${cid}`;
  }

  private floorKey(cid: number): string {
    return `${this.prefix}:talk:floor:${cid}`;
  }
}

function parseFloor(version: number, value: string | null): SharedFloor {
  if (!value) return { state: IDLE, token: 0, version };
  const bar = value.indexOf('|');
  return { state: JSON.parse(value.slice(bar + 1)) as FloorState, token: Number(value.slice(0, bar)), version };
}
