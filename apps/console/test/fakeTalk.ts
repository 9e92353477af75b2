import type { TalkAgentEvent, TalkSeat } from '@intercom/contract';
import { act } from '@testing-library/react';
import { TalkClient, type TalkClientDeps } from '../src/talk/TalkClient';
import type { TalkTransport, TransportSink } from '../src/talk/talkTypes';

export const FAKE_SEAT: TalkSeat = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };

/** A talk transport the test drives (connection, events), recording every command it got, in order. */
export class FakeTalkTransport implements TalkTransport {
  readonly mode = 'agent' as const;
  sink: TransportSink | null = null;
  readonly calls: string[] = [];
  /** @param callId what a private call answers with. */
  constructor(private readonly callId = 0x8000_0001) {}
  start(sink: TransportSink) {
    this.sink = sink;
  }
  stop() {
    this.sink = null;
  }
  private record(entry: string) {
    this.calls.push(entry);
    return Promise.resolve();
  }
  login() {
    this.calls.push('login');
    return Promise.resolve(FAKE_SEAT);
  }
  logout = () => this.record('logout');
  groupCall = (cid: number) => this.record(`groupCall ${cid}`);
  privateCall = (uid: number) => this.record(`privateCall ${uid}`).then(() => this.callId);
  endCall = (cid: number) => this.record(`endCall ${cid}`);
  answerCall = (cid: number) => this.record(`answerCall ${cid}`);
  applyMic = (cid: number) => this.record(`applyMic ${cid}`);
  freeMic = (cid: number) => this.record(`freeMic ${cid}`);
  monitor = (cids: readonly number[]) => this.record(`monitor ${cids.join(',')}`);
  applyVideo = (uid: number) => this.record(`applyVideo ${uid}`);
  freeVideo = (uid: number) => this.record(`freeVideo ${uid}`);
  emit(event: TalkAgentEvent) {
    act(() => this.sink?.event(event));
  }
}

/**
 * The console's `talk` module over a transport the test hands in, for
 * `vi.mock('…/talk/talk', async () => (await import('…/test/fakeTalk')).fakeTalkModule(() => harness.transport))`.
 */
export function fakeTalkModule(
  transport: () => TalkTransport,
  browserProblem: TalkClientDeps['browserProblem'] = () => Promise.resolve(null),
) {
  const talk = new TalkClient({
    createAgent: transport,
    createBrowser: transport,
    fetchAuthCode: () =>
      Promise.resolve({ authCode: 'a'.repeat(32), expiresAt: Date.now() + 60_000, dispatchNo: 'D3' }),
    browserProblem,
    secureContext: true,
  });
  return { talk };
}

/** Starts `talk` over a connected transport and logs its seat in. */
export async function logInSeat(talk: TalkClient, transport: FakeTalkTransport) {
  talk.start();
  act(() => transport.sink?.connection('connected'));
  talk.setAccount({ proxy: 'http://localhost', partyId: 1, name: 'admin', dispatchNo: 'D3' });
  await act(() => talk.login());
}
