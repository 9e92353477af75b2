import { z } from 'zod';

/** SignalR's JSON hub protocol (notes/signalr-protocol.md sections 5 and 6): records end with 0x1E. */
export const RS = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * Splits incoming text into records. A record may arrive split over several frames or POSTs; the
 * unfinished tail waits for the rest, up to `maxChars`.
 */
export class RecordReader {
  private pending = '';

  constructor(private readonly maxChars: number) {}

  push(text: string): string[] {
    const data = this.pending + text;
    const parts = data.split(RS);
    this.pending = parts.pop() ?? '';
    if (this.pending.length > this.maxChars) throw new ProtocolError('record too large');
    for (const part of parts) if (part.length > this.maxChars) throw new ProtocolError('record too large');
    return parts;
  }
}

const handshakeSchema = z.object({ protocol: z.string(), version: z.number().int() });

export type HubProtocolName = 'json' | 'messagepack';

/**
 * The first record of every connection: the protocol it asks for, or the error text to answer with.
 * MessagePack needs a transport that carries binary (not Server-Sent Events).
 */
export function checkHandshake(
  record: string,
  binaryTransport = true,
): { protocol: HubProtocolName } | { error: string } {
  let parsed: z.infer<typeof handshakeSchema>;
  try {
    parsed = handshakeSchema.parse(JSON.parse(record));
  } catch {
    return { error: 'Handshake request is not valid JSON with protocol and version.' };
  }
  const { protocol, version } = parsed;
  if (protocol !== 'json' && protocol !== 'messagepack')
    return { error: `The protocol '${protocol}' is not supported.` };
  if (version !== 1) return { error: `The server does not support version ${version} of the '${protocol}' protocol.` };
  if (protocol === 'messagepack' && !binaryTransport) {
    return {
      error:
        "Cannot use the 'messagepack' protocol on the current transport. The transport does not support 'Binary' transfer format.",
    };
  }
  return { protocol };
}

export const HANDSHAKE_OK = `{}${RS}`;
export const PING = `{"type":${MessageType.Ping}}${RS}`;

export function handshakeError(error: string): string {
  return `${JSON.stringify({ error })}${RS}`;
}

const headers = z.record(z.string(), z.string()).optional();
const invocationId = z.string().min(1).max(128);
const target = z.string().min(1).max(128);
const args = z.array(z.unknown()).max(64);
const streamIds = z.array(z.string()).optional();

const hubMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(MessageType.Invocation),
    headers,
    invocationId: invocationId.optional(),
    target,
    arguments: args,
    streamIds,
  }),
  z.object({ type: z.literal(MessageType.StreamItem), headers, invocationId, item: z.unknown() }),
  z.object({
    type: z.literal(MessageType.Completion),
    headers,
    invocationId,
    result: z.unknown().optional(),
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal(MessageType.StreamInvocation),
    headers,
    invocationId,
    target,
    arguments: args,
    streamIds,
  }),
  z.object({ type: z.literal(MessageType.CancelInvocation), headers, invocationId }),
  z.object({ type: z.literal(MessageType.Ping) }),
  z.object({
    type: z.literal(MessageType.Close),
    error: z.string().optional(),
    allowReconnect: z.boolean().optional(),
  }),
  z.object({ type: z.literal(MessageType.Ack), sequenceId: z.number() }),
  z.object({ type: z.literal(MessageType.Sequence), sequenceId: z.number() }),
]);
export type HubMessage = z.infer<typeof hubMessageSchema>;

export function parseHubMessage(record: string): HubMessage {
  let json: unknown;
  try {
    json = JSON.parse(record);
  } catch {
    throw new ProtocolError('message is not JSON');
  }
  return hubMessageOf(json);
}

/** A message object of either protocol, checked against the messages the hub protocol defines. */
export function hubMessageOf(value: unknown): HubMessage {
  const parsed = hubMessageSchema.safeParse(value);
  if (!parsed.success) throw new ProtocolError('message does not follow the hub protocol');
  return parsed.data;
}

/** A server-to-client invocation with one argument already serialised (no invocation id: no reply). */
export function invocationRecord(targetName: string, argumentJson: string): string {
  return `{"type":${MessageType.Invocation},"target":${JSON.stringify(targetName)},"arguments":[${argumentJson}]}${RS}`;
}

export function streamItemRecord(id: string, itemJson: string): string {
  return `{"type":${MessageType.StreamItem},"invocationId":${JSON.stringify(id)},"item":${itemJson}}${RS}`;
}

export type Outcome = { result: unknown } | { error: string } | Record<string, never>;

export function completionRecord(id: string, outcome: Outcome = {}): string {
  const message: Record<string, unknown> = { type: MessageType.Completion, invocationId: id };
  if ('error' in outcome) message.error = outcome.error;
  else if ('result' in outcome && outcome.result !== undefined) message.result = outcome.result;
  return `${JSON.stringify(message)}${RS}`;
}

export function closeRecord(error?: string, allowReconnect?: boolean): string {
  const message: Record<string, unknown> = { type: MessageType.Close };
  if (error !== undefined) message.error = error;
  if (allowReconnect) message.allowReconnect = true;
  return `${JSON.stringify(message)}${RS}`;
}
