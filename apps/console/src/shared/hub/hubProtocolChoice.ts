import {
  GPS_BLOCK_TYPE,
  ONLINE_BLOCK_TYPE,
  PackedGpsBlockError,
  PackedOnlineBlockError,
  PositionBlockVersionError,
  unpackOnlineUsers,
  type GpsBlockReader,
  type PushMsg,
  type PushNotify,
} from '@intercom/contract';

/** The hub protocol a connection speaks: MessagePack (binary position blocks) or JSON. */
export type HubProtocolName = 'messagepack' | 'json';

/**
 * A start that failed because the server (or a proxy, or the transports left) will not carry
 * MessagePack: the handshake was refused, or no transport offers the Binary transfer format.
 * Anything else (the server out of reach, a 401) is no reason to give MessagePack up.
 */
export function refusesMessagePack(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /Server returned handshake error|Error parsing handshake response|does not support Binary|None of the transports supported by the client/.test(
    text,
  );
}

/**
 * What a `GPSBlock` push makes: the same message JSON connections get, or a block this console
 * cannot read (a version it does not know, or a packed snapshot that does not unpack: it must not
 * go on without the users, so it falls back to JSON).
 */
export type BlockOutcome<M = PushMsg> = { message: M } | { unreadable: string } | undefined;

/**
 * A `GPSBlock` push (MessagePack connections) as the `GPSArray` (a full block) or `GPS` message the
 * store takes from JSON connections. Undefined for any other message, or a malformed block.
 */
export function gpsBlockMessage(argument: unknown, reader: GpsBlockReader): BlockOutcome {
  const message = argument as { type?: unknown; data?: unknown } | null;
  if (message?.type !== GPS_BLOCK_TYPE) return undefined;
  try {
    const { full, records } = reader.read(message.data);
    return { message: { type: full ? 'GPSArray' : 'GPS', data: records } };
  } catch (error) {
    if (error instanceof PositionBlockVersionError || error instanceof PackedGpsBlockError) {
      return { unreadable: error.message };
    }
    return undefined;
  }
}

/**
 * An `OnlineBlock` (a packed subscription's online users, MessagePack connections) as the message
 * JSON connections get: `OnlineUser` on `pushMsg`, `Online` with its count on `pushNotify`. A block
 * that does not unpack is unreadable (the console falls back to JSON); undefined for any other message.
 */
export function onlineBlockMessage(argument: unknown, target: 'pushMsg'): BlockOutcome<PushMsg>;
export function onlineBlockMessage(argument: unknown, target: 'pushNotify'): BlockOutcome<PushNotify>;
export function onlineBlockMessage(
  argument: unknown,
  target: 'pushMsg' | 'pushNotify',
): BlockOutcome<PushMsg | PushNotify> {
  const message = argument as { type?: unknown; data?: unknown } | null;
  if (message?.type !== ONLINE_BLOCK_TYPE) return undefined;
  try {
    const { count, users } = unpackOnlineUsers(message.data);
    return {
      message: target === 'pushMsg' ? { type: 'OnlineUser', data: users } : { type: 'Online', data: { count, users } },
    };
  } catch (error) {
    if (error instanceof PackedOnlineBlockError) return { unreadable: error.message };
    throw error;
  }
}
