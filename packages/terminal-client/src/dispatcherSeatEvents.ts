import { TerminalCloseCodes, type TalkAgentEvent, type TerminalServerMessage } from '@intercom/contract';

/** Why a seat's connection ended, in the talk agent protocol's words (`loggedOut` reasons). */
export type SeatEndReason = Extract<TalkAgentEvent, { event: 'loggedOut' }>['reason'];

/**
 * A server push in the talk agent protocol's event shape (docs/talk-agent-protocol.md "Events"):
 * the floor and call pushes keep their fields, `videoOnline` nests the source under `video`.
 * Undefined for a push the protocol has no event for (`config`, ...).
 */
export function seatEventOf(message: TerminalServerMessage): TalkAgentEvent | undefined {
  switch (message.type) {
    case 'floorTaken': {
      const { cid, uid, name, priority } = message;
      return { event: 'floorTaken', cid, uid, name, priority };
    }
    case 'floorIdle':
      return { event: 'floorIdle', cid: message.cid };
    case 'floorRevoked':
      return { event: 'floorRevoked', cid: message.cid, reason: message.reason };
    case 'callStart': {
      const { cid, from = 0, name = '' } = message;
      return 'emergency' in message
        ? { event: 'callStart', cid, from, name, emergency: true }
        : { event: 'callStart', cid, from, name };
    }
    case 'regrouped': {
      const { cid, name, incident } = message;
      return { event: 'regrouped', cid, name, incident };
    }
    case 'channelLeft':
      return { event: 'channelLeft', cid: message.cid, reason: message.reason };
    case 'callEnd':
      return { event: 'callEnd', cid: message.cid };
    case 'videoOnline': {
      const { uid, name, codecs } = message;
      return { event: 'videoOnline', video: { uid, name: name ?? '', codecs: codecs ?? [] } };
    }
    case 'videoOffline':
      return { event: 'videoOffline', uid: message.uid };
    case 'ack':
    case 'channelsChanged':
    case 'checkInDue':
    case 'closing':
    case 'config':
    case 'error':
    case 'videoStart':
    case 'videoStop':
      return undefined;
  }
}

/**
 * The close code of a seat's socket (docs/terminal-protocol.md): 4001 another login took the seat,
 * 4002 its console session ended; anything else lost the platform, and the seat may come back.
 */
export function seatEndReasonOf(code: number): Exclude<SeatEndReason, 'logout'> {
  if (code === TerminalCloseCodes.replaced) return 'replaced';
  if (code === TerminalCloseCodes.accountChanged) return 'session_end';
  return 'server_lost';
}
