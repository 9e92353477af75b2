import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  ListenerSet,
  type ErrorSink,
  type EventBus,
  type RealtimeEvent,
  type RealtimeEventOf,
  type RealtimeKind,
  type RealtimeListener,
} from './eventBus.js';
import { decodeUsersFrame, encodeUsersFrame, usersFrameOrigin } from './usersFrame.js';

/** The part of an ioredis client the backplane uses; a subscribed connection can only subscribe. */
export interface RedisClient {
  publish(channel: string, message: string | Buffer): Promise<unknown>;
  subscribe(...channels: string[]): Promise<unknown>;
  /** Messages as bytes (no `message` listener: ioredis then makes no text of a binary frame). */
  on(event: 'messageBuffer', listener: (channel: Buffer, message: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  quit(): Promise<unknown>;
}

interface Envelope {
  /** The instance that published; it already delivered the event locally. */
  o: string;
  e: RealtimeEvent;
}

/**
 * Redis pub/sub between server instances (DESIGN.md section 1). Local listeners get an event at once;
 * other instances get it through the channel and skip their own echoes. Events are JSON envelopes on
 * `channel`, but `users` batches: binary frames (usersFrame.ts) on `<channel>:users`, which an
 * instance older than the frames does not subscribe to (it missed `users` events before them too).
 */
export class RedisEventBus implements EventBus {
  private readonly origin = randomUUID();
  private readonly listeners: ListenerSet;
  private readonly usersChannel: string;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
    private readonly onError: ErrorSink,
  ) {
    this.listeners = new ListenerSet(onError);
    this.usersChannel = `${channel}:users`;
    publisher.on('error', (error) => onError(error, 'redis publisher'));
    subscriber.on('error', (error) => onError(error, 'redis subscriber'));
    subscriber.on('messageBuffer', (channel, message) => {
      const name = channel.toString();
      if (name === this.channel) this.receive(message.toString());
      else if (name === this.usersChannel) this.receiveUsers(message);
    });
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel, this.usersChannel);
  }

  publish(event: RealtimeEvent): void {
    this.listeners.deliver(event);
    let channel = this.channel;
    let message: string | Buffer;
    try {
      if (event.kind === 'users') {
        channel = this.usersChannel;
        message = encodeUsersFrame(this.origin, event.E_ID, event.users);
      } else {
        message = JSON.stringify({ o: this.origin, e: event } satisfies Envelope);
      }
    } catch (error) {
      this.onError(error, 'redis publish');
      return;
    }
    this.publisher.publish(channel, message).catch((error: unknown) => {
      this.onError(error, 'redis publish');
    });
  }

  on<K extends RealtimeKind>(kind: K, handler: (event: RealtimeEventOf<K>) => void): () => void {
    return this.listeners.addKind(kind, handler);
  }

  subscribe(listener: RealtimeListener): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }

  private receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch (error) {
      this.onError(error, 'redis message is not JSON');
      return;
    }
    if (envelope.o === this.origin || typeof envelope.e?.kind !== 'string') return;
    this.listeners.deliver(envelope.e);
  }

  private receiveUsers(frame: Buffer): void {
    let batch: ReturnType<typeof decodeUsersFrame>;
    try {
      if (usersFrameOrigin(frame) === this.origin) return;
      batch = decodeUsersFrame(frame);
    } catch (error) {
      this.onError(error, 'redis users frame');
      return;
    }
    this.listeners.deliver({ kind: 'users', E_ID: batch.E_ID, users: batch.users });
  }
}

/** Connects the backplane: one connection publishes, a duplicate subscribes. */
export async function connectRedisEventBus(url: string, onError: ErrorSink, channel = 'intercom:realtime') {
  const publisher = new Redis(url, { maxRetriesPerRequest: null });
  const subscriber = publisher.duplicate();
  const bus = new RedisEventBus(publisher, subscriber, channel, onError);
  await bus.start();
  return bus;
}
