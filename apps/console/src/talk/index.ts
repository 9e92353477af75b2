/**
 * The console's talk connection (one owner, like shared/hub): the local talk agent or this browser
 * as the dispatcher seat. Other features use only what is exported here.
 *
 * - `useTalk(select?)`: the state (connection, seat, floors per channel, calls, mic, videos).
 * - `talk.groupCall(cid)`, `talk.endCall(cid?)`, `talk.privateCall(uid, name?)`, `talk.applyMic()`,
 *   `talk.freeMic()`, `talk.answerCall(cid)` (an emergency call), `talk.monitor(cids)`, `talk.applyVideo(uid)`, `talk.freeVideo(uid)`: each
 *   resolves when the agent or server accepted it and rejects with a `TalkError` (its status text
 *   is already shown).
 * - `talk.onVideoFrame(listener)`: kind-2 video frames (`TalkVideoFrame`: uid, codec, timestamp,
 *   payload view) of the videos applied for; returns the unsubscription.
 */
export { talk } from './talk';
export { useTalk } from './useTalk';
export { TalkConnection } from './TalkConnection';
export { TalkPanel } from './TalkPanel';
export { PushToTalkKey } from './PushToTalkKey';
export { IntercomAccountDialog } from './IntercomAccountDialog';
export { CallButton } from './CallButton';
export { TalkError } from './talkTypes';
export type {
  FloorHolder,
  FloorLoss,
  FloorState,
  MicState,
  TalkCall,
  TalkConnection as TalkConnectionState,
  TalkMode,
  TalkState,
  TalkStatus,
  TalkVideoFrame,
} from './talkTypes';
