import { randomInt } from 'node:crypto';
import { videoSourceSchema } from '@intercom/contract';
import type { Redis } from 'ioredis';
import { z } from 'zod';

const uid = z.number().int().min(1).max(0xffff_ffff);
/** More terminals than one instance holds (DESIGN.md: 50,000 terminals a box, a few with video). */
const MAX_LISTED = 100_000;

/**
 * What instances tell each other about video (DESIGN.md 9). The terminal's instance announces its
 * sources (`online`, `offline`); an instance whose seats watch a terminal elsewhere says so (`want`
 * on its first viewer, `none` when its last goes). Every instance says `alive` each third of the
 * lease with the sources it holds and the remote ones it watches, which repairs a lost message and
 * ends the viewers of an instance that stopped speaking. `hello` asks every instance to announce
 * its sources again (an instance that just started, or heard of a source it does not know).
 */
export const videoSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('online'), source: videoSourceSchema.extend({ uid, E_ID: uid }) }),
  z.object({ kind: z.literal('offline'), uid }),
  z.object({ kind: z.literal('want'), uid }),
  z.object({ kind: z.literal('none'), uid }),
  z.object({
    kind: z.literal('alive'),
    sources: z.array(uid).max(MAX_LISTED),
    watching: z.array(uid).max(MAX_LISTED),
  }),
  z.object({ kind: z.literal('hello') }),
]);
export type VideoSignal = z.infer<typeof videoSignalSchema>;

const envelopeSchema = z.object({ from: uid, signal: videoSignalSchema });

/** type-free frame header: the sending instance u32, then the downstream video frame. */
const FRAME_HEADER = 4;

export interface VideoBackplaneHandlers {
  signal(origin: number, signal: VideoSignal): void;
  /** A downstream video frame another instance relays for seats watching here. */
  frame(origin: number, frame: Buffer): void;
  /** A message that is not one of ours: logged and counted, nothing changes. */
  refused(error: unknown): void;
  error(error: unknown, context: string): void;
}

/**
 * Video between instances through Redis pub/sub: signals on one channel every instance hears,
 * frames on a channel per receiving instance, so an instance none of whose seats watch a terminal
 * elsewhere receives no video at all, and frames cross only while someone elsewhere watches. The
 * leases (who spoke within `leaseMs`) are judged by VideoInstances on AppDeps.clock.
 */
export class VideoBackplane {
  /** This instance: its frame channel's name, and skipped in the signals it hears back. */
  readonly origin = randomInt(1, 0xffff_ffff);
  private readonly signals: string;

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    readonly leaseMs: number,
    private readonly handlers: VideoBackplaneHandlers,
  ) {
    this.signals = `${prefix}:video`;
    redis.on('error', (error) => handlers.error(error, 'video redis'));
    subscriber.on('error', (error) => handlers.error(error, 'video redis subscriber'));
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      if (channel.toString() === this.signals) this.receiveSignal(message);
      else this.receiveFrame(message);
    });
  }

  /** Two connections of its own, duplicated from `client` (which stays the caller's). */
  static async connect(
    client: Redis,
    prefix: string,
    leaseMs: number,
    handlers: VideoBackplaneHandlers,
  ): Promise<VideoBackplane> {
    const backplane = new VideoBackplane(client.duplicate(), client.duplicate(), prefix, leaseMs, handlers);
    await backplane.subscriber.subscribe(backplane.signals, backplane.frameChannel(backplane.origin));
    return backplane;
  }

  publish(signal: VideoSignal): void {
    const message = JSON.stringify({ from: this.origin, signal });
    this.redis.publish(this.signals, message).catch((error: unknown) => this.handlers.error(error, 'video publish'));
  }

  /** One frame for the seats of instance `to`; settles when Redis took it (the viewer queue's in-flight bound). */
  async publishFrame(to: number, frame: Buffer): Promise<void> {
    const message = Buffer.allocUnsafe(FRAME_HEADER + frame.length);
    message.writeUInt32BE(this.origin, 0);
    frame.copy(message, FRAME_HEADER);
    await this.redis.publish(this.frameChannel(to), message);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.quit(), this.redis.quit()]);
  }

  /** Drops both connections without a goodbye, as a crashed instance would (tests). */
  disconnect(): void {
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  private receiveSignal(message: Buffer): void {
    let parsed: z.infer<typeof envelopeSchema>;
    try {
      parsed = envelopeSchema.parse(JSON.parse(message.toString()));
    } catch (error) {
      return this.handlers.refused(error);
    }
    if (parsed.from === this.origin) return;
    this.handlers.signal(parsed.from, parsed.signal);
  }

  private receiveFrame(message: Buffer): void {
    if (message.length <= FRAME_HEADER) return this.handlers.refused(new Error('a video frame too short'));
    const origin = message.readUInt32BE(0);
    this.handlers.frame(origin, message.subarray(FRAME_HEADER));
  }

  private frameChannel(origin: number): string {
    return `${this.prefix}:video:to:${origin}`;
  }
}
