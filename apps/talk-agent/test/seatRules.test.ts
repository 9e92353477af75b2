import type { TalkAgentEvent } from '@intercom/contract';
import { runSeatRules, type SeatDriver } from '../../../packages/terminal-client/test/seatRules.run.js';
import { SEAT_AUTH_CODE } from '../../../packages/terminal-client/test/seatRules.table.js';
import type { Microphone } from '../src/audio/audioBackend.js';
import { NullSpeaker } from '../src/audio/audioBackend.js';
import { Playout } from '../src/audio/playout.js';
import { TalkSession } from '../src/talkSession.js';

/** A microphone that gives two 20 ms frames of tone when started. */
class TwoFrameMicrophone implements Microphone {
  readonly name = 'two frames';
  running = false;
  start(onFrame: (pcm: Int16Array) => void): void {
    this.running = true;
    const tone = new Int16Array(960).map((_, i) => Math.round(6000 * Math.sin(i / 8)));
    onFrame(tone);
    onFrame(tone);
  }
  stop(): void {
    this.running = false;
  }
}

// The talk agent's session, driven by its commands as a console sends them (AgentTransport).
runSeatRules('TalkSession (talk agent)', (peer) => {
  const microphone = new TwoFrameMicrophone();
  const playout = new Playout(new NullSpeaker());
  const events: TalkAgentEvent[] = [];
  const session = new TalkSession({
    allowOrigins: [peer.origin],
    microphone,
    playout,
    emit: (event) => events.push(event),
    emitBinary: () => undefined,
    log: () => undefined,
  });
  const id = 0;
  const driver: SeatDriver = {
    events,
    async command(step) {
      switch (step[0]) {
        case 'login': {
          const login = { Proxy: peer.origin, PartyID: 1, Uid: 'admin', AuthCode: SEAT_AUTH_CODE };
          await session.handle({ cmd: 'Login', id, ...login, RecvUid: step[1] ?? 'D3' });
          // AgentTransport.login asks for the video list next.
          return session.handle({ cmd: 'VideoList', id });
        }
        case 'logout':
          return session.handle({ cmd: 'LogOut', id });
        case 'groupCall':
          return session.handle({ cmd: 'GroupCall', id, cid: step[1] });
        case 'privateCall':
          return session.handle({ cmd: 'PrivateCall', id, uid: step[1] });
        case 'endCall':
          return session.handle({ cmd: 'EndCall', id, cid: step[1] });
        case 'applyMic':
          return session.handle({ cmd: 'ApplyMic', id, cid: step[1] });
        case 'freeMic':
          return session.handle({ cmd: 'FreeMic', id, cid: step[1] });
        case 'monitor':
          return session.handle({ cmd: 'Monitor', id, cids: [...step[1]] });
        case 'answerCall':
          return session.handle({ cmd: 'AnswerCall', id, cid: step[1] });
      }
    },
    // What LoginInfo answers.
    state: () => ({ ...session.info(), mic: microphone.running }),
    async close() {
      await session.close();
      playout.close();
    },
  };
  return Promise.resolve(driver);
});
