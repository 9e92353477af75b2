import {
  HANDSHAKE_OK,
  PING,
  ProtocolError,
  RS,
  RecordReader,
  closeRecord,
  completionRecord,
  invocationRecord,
  parseHubMessage,
  streamItemRecord,
  type HubMessage,
  type HubProtocolName,
  type Outcome,
} from './hubProtocol.js';
import {
  MP_PING,
  MessagePackReader,
  mpClose,
  mpCompletion,
  mpInvocation,
  mpStreamItem,
} from './messagePackProtocol.js';

/** What a connection hands its transport: text records (JSON protocol) or binary messages (MessagePack). */
export type Payload = string | Uint8Array;

/**
 * An argument or stream item: JSON text (what the feeds build once per scope, which MessagePack
 * re-encodes) or a value (a GPS block, whose position block stays binary in MessagePack).
 */
export type WireArgument = { json: string } | { value: unknown };

/** The hub protocol a connection chose in its handshake: how its records are written and read. */
export interface HubWire {
  readonly protocol: HubProtocolName;
  readonly handshakeOk: Payload;
  readonly ping: Payload;
  /** A server-to-client invocation of `target` with one argument (no invocation id: no reply). */
  invocation(target: string, argument: WireArgument): Payload;
  streamItem(invocationId: string, item: WireArgument): Payload;
  completion(invocationId: string, outcome?: Outcome): Payload;
  close(error?: string, allowReconnect?: boolean): Payload;
  /** The messages of one WebSocket frame or POST body after the handshake. */
  read(data: Uint8Array): HubMessage[];
}

const utf8 = new TextDecoder();

const jsonOf = (argument: WireArgument) => ('json' in argument ? argument.json : JSON.stringify(argument.value));
const valueOf = (argument: WireArgument): unknown => ('json' in argument ? JSON.parse(argument.json) : argument.value);

function jsonWire(maxChars: number): HubWire {
  const reader = new RecordReader(maxChars);
  return {
    protocol: 'json',
    handshakeOk: HANDSHAKE_OK,
    ping: PING,
    invocation: (target, argument) => invocationRecord(target, jsonOf(argument)),
    streamItem: (invocationId, item) => streamItemRecord(invocationId, jsonOf(item)),
    completion: completionRecord,
    close: closeRecord,
    read: (data) => reader.push(utf8.decode(data)).map(parseHubMessage),
  };
}

/** The handshake answer `{}` + 0x1E as bytes: a binary transport's first message. */
const BINARY_HANDSHAKE_OK = new TextEncoder().encode(HANDSHAKE_OK);

function messagePackWire(maxBytes: number): HubWire {
  const reader = new MessagePackReader(maxBytes);
  return {
    protocol: 'messagepack',
    handshakeOk: BINARY_HANDSHAKE_OK,
    ping: MP_PING,
    invocation: (target, argument) => mpInvocation(target, [valueOf(argument)]),
    streamItem: (invocationId, item) => mpStreamItem(invocationId, valueOf(item)),
    completion: mpCompletion,
    close: mpClose,
    read: (data) => reader.push(data),
  };
}

export function wireOf(protocol: HubProtocolName, maxSize: number): HubWire {
  return protocol === 'messagepack' ? messagePackWire(maxSize) : jsonWire(maxSize);
}

/** Records written before a connection's handshake chose its protocol (none are sent then). */
export const JSON_WIRE: HubWire = jsonWire(0);

const RS_BYTE = RS.charCodeAt(0);

/**
 * The handshake record, read from bytes: it is JSON text ending with 0x1E whatever the protocol, and
 * what follows it in the same frame is the first data of the chosen protocol.
 */
export class HandshakeReader {
  private pending: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxBytes: number) {}

  push(data: Uint8Array): { record: string; rest: Uint8Array } | undefined {
    const bytes = this.pending.length === 0 ? data : concat(this.pending, data);
    const end = bytes.indexOf(RS_BYTE);
    if (end < 0) {
      if (bytes.length > this.maxBytes) throw new ProtocolError('record too large');
      this.pending = bytes;
      return undefined;
    }
    this.pending = new Uint8Array(0);
    return { record: utf8.decode(bytes.subarray(0, end)), rest: bytes.subarray(end + 1) };
  }
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

/** Records queued together as one transport write: text joined, or bytes concatenated. */
export function joinPayloads(payloads: readonly Payload[]): Payload {
  if (payloads.every((payload) => typeof payload === 'string')) return (payloads as string[]).join('');
  const parts = payloads.map((payload) => (typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload));
  return Buffer.concat(parts);
}
