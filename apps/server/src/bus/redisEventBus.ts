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

/** The part of an ioredis client the backplane uses; a subscribed connection can only subscribe. */
export interface RedisClient {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
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
 * other instances get it through one channel and skip their own echoes.
 */
export class RedisEventBus implements EventBus {
  private readonly origin = randomUUID();
  private readonly listeners: ListenerSet;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
    private readonly onError: ErrorSink,
  ) {
    this.listeners = new ListenerSet(onError);
    publisher.on('error', (error) => onError(error, 'redis publisher'));
    subscriber.on('error', (error) => onError(error, 'redis subscriber'));
    subscriber.on('message', (channel, message) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel);
  }

  publish(event: RealtimeEvent): void {
    this.listeners.deliver(event);
    const envelope: Envelope = { o: this.origin, e: event };
    this.publisher.publish(this.channel, JSON.stringify(envelope)).catch((error: unknown) => {
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
}

/** Connects the backplane: one connection publishes, a duplicate subscribes. */
export async function connectRedisEventBus(url: string, onError: ErrorSink, channel = 'intercom:realtime') {
  const publisher = new Redis(url, { maxRetriesPerRequest: null });
  const subscriber = publisher.duplicate();
  const bus = new RedisEventBus(publisher, subscriber, channel, onError);
  await bus.start();
  return bus;
}
