import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { tcpSocketOf, webSocketFrame } from '../http/webSocketFrame.js';
import type { Clock, ClockTimer } from '../core/clock.js';
import type { TransportKind } from './hubOptions.js';
import type { Payload } from './hubWire.js';

/** Where a connection's records go; the connection keeps its own queue and feeds the sink when ready. */
export interface TransportSink {
  readonly kind: TransportKind;
  /** Characters handed over that the client has not taken yet. */
  buffered(): number;
  /** Whether a write now would be taken without piling up in the transport. */
  ready(): boolean;
  write(payload: Payload): void;
  /** Ends the transport: after what was written (graceful), or at once. */
  end(graceful: boolean): void;
}

/**
 * Past this many buffered characters a streaming transport waits for its socket to drain. Keep it above
 * a TCP socket's write high-water mark (16 KiB): WebSocketSink resumes only on the socket's 'drain',
 * which comes only after a write past that mark.
 */
const HIGH_WATER = 64 * 1024;

interface HeldPoll {
  reply: FastifyReply;
  timer: ClockTimer;
}

/**
 * Long polling (notes/signalr-protocol.md section 3): records wait for the next poll; an empty poll
 * is held up to the poll timeout; a newer poll ends an older held one with 204; 204 also tells the
 * client the connection has ended. An ended connection stays known until the client's DELETE (202)
 * or the disconnect timeout, so that DELETE never meets a 404.
 */
export class LongPollingSink implements TransportSink {
  readonly kind = 'LongPolling';
  /** When the last poll was answered or abandoned; a client that stops polling is gone. */
  lastPollEndAt: number;
  private held: HeldPoll | null = null;
  private ended = false;

  constructor(
    private readonly pollTimeoutMs: number,
    /** The hub's clock: the poll timeout and `lastPollEndAt`, which the hub's scan compares with it. */
    private readonly clock: Clock,
  ) {
    this.lastPollEndAt = clock.now();
  }

  get polling(): boolean {
    return this.held !== null;
  }

  buffered(): number {
    return 0;
  }

  ready(): boolean {
    return this.held !== null;
  }

  write(payload: Payload): void {
    const body = typeof payload === 'string' ? payload : bufferOf(payload);
    this.release()?.code(200).type('application/octet-stream').send(body);
  }

  end(): void {
    this.ended = true;
    this.release()?.code(204).send();
  }

  /** A new poll: the caller pumps queued records into it right after. */
  hold(request: FastifyRequest, reply: FastifyReply): void {
    this.release()?.code(204).send();
    if (this.ended) {
      reply.code(204).send();
      return;
    }
    const timer = this.clock.timeout(() => {
      if (this.held?.reply === reply) this.release()?.code(200).type('application/octet-stream').send('');
    }, this.pollTimeoutMs);
    this.held = { reply, timer };
    request.raw.once('close', () => {
      // The client gave up on this poll (abort, network loss): it is no longer there to answer.
      if (this.held?.reply === reply) this.release();
    });
  }

  private release(): FastifyReply | undefined {
    const held = this.held;
    if (!held) return undefined;
    held.timer.cancel();
    this.held = null;
    this.lastPollEndAt = this.clock.now();
    return held.reply;
  }
}

/** Each payload is one event; every line of it a `data:` line (notes/signalr-protocol.md section 4). */
export function serverSentEvent(payload: string): string {
  return `${payload
    .split('\n')
    .map((line) => `data: ${line}\r\n`)
    .join('')}\r\n`;
}

export class ServerSentEventsSink implements TransportSink {
  readonly kind = 'ServerSentEvents';

  constructor(private readonly res: ServerResponse) {}

  buffered(): number {
    return this.res.writableLength;
  }

  ready(): boolean {
    return !this.res.writableEnded && !this.res.destroyed && this.res.writableLength < HIGH_WATER;
  }

  /** Text only: the handshake refuses MessagePack on this transport. */
  write(payload: Payload): void {
    this.res.write(serverSentEvent(typeof payload === 'string' ? payload : bufferOf(payload).toString('utf8')));
  }

  end(graceful: boolean): void {
    if (graceful) this.res.end();
    else this.res.destroy();
  }
}

/**
 * The last text a WebSocket sink framed. A scope's push hands the very same string to every
 * connection of the scope one after another, so they all share one UTF-8 encoding and one whole
 * WebSocket frame (webSocketFrame), as socket.io shares a broadcast's pre-encoded frame.
 */
let lastText = '';
let lastFrame = webSocketFrame(new Uint8Array(0), 'text');

function textFrame(text: string): Buffer {
  if (text !== lastText) {
    lastText = text;
    lastFrame = webSocketFrame(Buffer.from(text, 'utf8'), 'text');
  }
  return lastFrame;
}

/** The same for MessagePack: a scope's push is one Uint8Array shared by its connections. */
let lastBytes: Uint8Array | null = null;
let lastBinaryFrame = lastFrame;

function binaryFrame(bytes: Uint8Array): Buffer {
  if (bytes !== lastBytes) {
    lastBytes = bytes;
    lastBinaryFrame = webSocketFrame(bytes, 'binary');
  }
  return lastBinaryFrame;
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The hub negotiates no WebSocket compression, so ws writes its own frames (pong, close) to the TCP
 * socket at once, and a frame written straight to that socket keeps its place among them.
 */
export class WebSocketSink implements TransportSink {
  readonly kind = 'WebSockets';
  private readonly tcp: Socket | undefined;

  constructor(
    private readonly socket: WebSocket,
    onDrain: () => void,
  ) {
    // Not ready means HIGH_WATER or more buffered, past the TCP socket's own high-water mark: the
    // write that got it there returned false, so the socket emits 'drain' once its buffer is empty.
    // One listener, instead of a callback (and a pump) per write.
    this.tcp = tcpSocketOf(socket);
    this.tcp?.on('drain', onDrain);
  }

  buffered(): number {
    return this.socket.bufferedAmount;
  }

  ready(): boolean {
    return this.socket.readyState === this.socket.OPEN && this.socket.bufferedAmount < HIGH_WATER;
  }

  write(payload: Payload): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.tcp?.write(typeof payload === 'string' ? textFrame(payload) : binaryFrame(payload));
  }

  end(graceful: boolean): void {
    if (graceful) this.socket.close(1000);
    else this.socket.terminate();
  }
}
