import { Decoder, Encoder } from '@msgpack/msgpack';
import { MessageType, ProtocolError, hubMessageOf, type HubMessage, type Outcome } from './hubProtocol.js';

/**
 * SignalR's MessagePack hub protocol (the ASP.NET Core specification; docs/realtime.md,
 * "MessagePack"): every message is a MessagePack array whose first element is its type, framed by
 * its length as a VarInt (7 bits a byte, low bits first, at most 5 bytes).
 */

const encoder = new Encoder({ maxDepth: 100, initialBufferSize: 2048, ignoreUndefined: true });

/** The 5 bytes of a length prefix hold 2^35; the protocol allows 2^31 - 1. */
const MAX_PREFIX_BYTES = 5;

/** Completion result kinds. */
const ERROR_RESULT = 1;
const VOID_RESULT = 2;
const NON_VOID_RESULT = 3;

/** `payload` framed by its VarInt length. */
export function frameMessage(payload: Uint8Array): Uint8Array {
  const prefix: number[] = [];
  let size = payload.length;
  do {
    let part = size & 0x7f;
    size = Math.floor(size / 128);
    if (size > 0) part |= 0x80;
    prefix.push(part);
  } while (size > 0);
  const framed = new Uint8Array(prefix.length + payload.length);
  framed.set(prefix, 0);
  framed.set(payload, prefix.length);
  return framed;
}

export function messagePackFrame(message: unknown[]): Uint8Array {
  return frameMessage(encoder.encode(message));
}

export function mpInvocation(target: string, args: readonly unknown[]): Uint8Array {
  return messagePackFrame([MessageType.Invocation, {}, null, target, args]);
}

export function mpStreamItem(invocationId: string, item: unknown): Uint8Array {
  return messagePackFrame([MessageType.StreamItem, {}, invocationId, item]);
}

export function mpCompletion(invocationId: string, outcome: Outcome = {}): Uint8Array {
  if ('error' in outcome)
    return messagePackFrame([MessageType.Completion, {}, invocationId, ERROR_RESULT, outcome.error]);
  if ('result' in outcome && outcome.result !== undefined) {
    return messagePackFrame([MessageType.Completion, {}, invocationId, NON_VOID_RESULT, outcome.result]);
  }
  return messagePackFrame([MessageType.Completion, {}, invocationId, VOID_RESULT]);
}

export function mpClose(error?: string, allowReconnect?: boolean): Uint8Array {
  return messagePackFrame([MessageType.Close, error ?? null, allowReconnect ?? false]);
}

export const MP_PING = messagePackFrame([MessageType.Ping]);

/** The length prefix at `offset`: the payload's size and where the payload starts. */
function readPrefix(bytes: Uint8Array, offset: number): { size: number; start: number } {
  let size = 0;
  for (let index = 0; index < MAX_PREFIX_BYTES; index++) {
    const byte = bytes[offset + index];
    if (byte === undefined) throw new ProtocolError('the length prefix is cut short');
    if (index === MAX_PREFIX_BYTES - 1 && byte > 7) throw new ProtocolError('the length prefix is over 2 GB');
    size += (byte & 0x7f) * 2 ** (7 * index);
    if ((byte & 0x80) === 0) return { size, start: offset + index + 1 };
  }
  throw new ProtocolError('the length prefix is longer than 5 bytes');
}

const optionalText = (value: unknown) => (value === null ? undefined : value);

/** A decoded message array as the object the JSON protocol gives (then checked by the same schema). */
function messageObjectOf(array: unknown): unknown {
  if (!Array.isArray(array) || array.length === 0) throw new ProtocolError('a message is not a MessagePack array');
  const [type, ...rest] = array as unknown[];
  switch (type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      const [headers, invocationId, target, args, streamIds] = rest;
      return { type, headers, invocationId: optionalText(invocationId), target, arguments: args, streamIds };
    }
    case MessageType.StreamItem:
      return { type, headers: rest[0], invocationId: rest[1], item: rest[2] };
    case MessageType.Completion: {
      const [headers, invocationId, kind, value] = rest;
      if (kind === ERROR_RESULT) return { type, headers, invocationId, error: value };
      if (kind === NON_VOID_RESULT) return { type, headers, invocationId, result: value };
      if (kind === VOID_RESULT) return { type, headers, invocationId };
      throw new ProtocolError('a completion has an unknown result kind');
    }
    case MessageType.CancelInvocation:
      return { type, headers: rest[0], invocationId: rest[1] };
    case MessageType.Ping:
      return { type };
    case MessageType.Close:
      return { type, error: optionalText(rest[0]), allowReconnect: optionalText(rest[1]) };
    case MessageType.Ack:
    case MessageType.Sequence:
      return { type, sequenceId: rest[0] };
    default:
      throw new ProtocolError(`unknown message type ${String(type)}`);
  }
}

/**
 * Reads the messages of one WebSocket frame or POST body. Every SignalR client sends whole messages
 * in each, so a frame that ends inside a message (or a length prefix longer than what follows) is
 * refused, as is a message over `maxBytes`.
 */
export class MessagePackReader {
  private readonly decoder: Decoder;

  constructor(private readonly maxBytes: number) {
    this.decoder = new Decoder({
      maxStrLength: maxBytes,
      maxBinLength: maxBytes,
      maxArrayLength: 64 * 1024,
      maxMapLength: 1024,
      maxExtLength: maxBytes,
    });
  }

  push(bytes: Uint8Array): HubMessage[] {
    const messages: HubMessage[] = [];
    let offset = 0;
    while (offset < bytes.length) {
      const { size, start } = readPrefix(bytes, offset);
      if (size > this.maxBytes) throw new ProtocolError('record too large');
      if (size === 0) throw new ProtocolError('an empty message');
      if (start + size > bytes.length) throw new ProtocolError('a message is longer than its frame');
      messages.push(this.parse(bytes.subarray(start, start + size)));
      offset = start + size;
    }
    return messages;
  }

  private parse(payload: Uint8Array): HubMessage {
    let array: unknown;
    try {
      array = this.decoder.decode(payload);
    } catch {
      throw new ProtocolError('a message is not valid MessagePack');
    }
    return hubMessageOf(messageObjectOf(array));
  }
}
