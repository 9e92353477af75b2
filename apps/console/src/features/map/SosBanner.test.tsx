import type { Notification, TalkAgentEvent, TalkSeat } from '@intercom/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { english, renderWithProviders } from '../../../test/renderWithProviders';
import type { TalkClient } from '../../talk/TalkClient';
import type { TalkTransport, TransportSink } from '../../talk/talkTypes';

const SEAT: TalkSeat = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };
const CALL = 0x8000_0005;

/** A talk transport the test drives, recording the commands the banner caused. */
class FakeTransport implements TalkTransport {
  readonly mode = 'agent' as const;
  sink: TransportSink | null = null;
  readonly calls: string[] = [];
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
    return Promise.resolve(SEAT);
  }
  logout = () => this.record('logout');
  groupCall = (cid: number) => this.record(`groupCall ${cid}`);
  privateCall = (uid: number) => this.record(`privateCall ${uid}`).then(() => CALL);
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

const harness = vi.hoisted(() => ({ transport: null as unknown as FakeTransport }));

vi.mock('../../talk/talk', async () => {
  const { TalkClient: Client } = await import('../../talk/TalkClient');
  const talk = new Client({
    createAgent: () => harness.transport,
    createBrowser: () => harness.transport,
    fetchAuthCode: () =>
      Promise.resolve({ authCode: 'a'.repeat(32), expiresAt: Date.now() + 60_000, dispatchNo: 'D3' }),
    browserProblem: () => Promise.resolve(null),
    secureContext: true,
  });
  return { talk };
});

const { talk } = (await import('../../talk/talk')) as { talk: TalkClient };
const { SosBanner } = await import('./SosBanner');
const { PushToTalkKey } = await import('../../talk/PushToTalkKey');

function alarm(NType: string, N_ID = 1): Notification {
  return {
    N_ID,
    E_ID: 1,
    U_ID: 9,
    Phone: '13800000009',
    NType,
    Content: NType,
    Latitude: 22.5,
    Longitude: 114,
    State: 'new',
    CreatedAt: Date.now(),
  };
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

async function loggedIn() {
  talk.start();
  act(() => harness.transport.sink?.connection('connected'));
  talk.setAccount({ proxy: 'http://localhost', partyId: 1, name: 'admin', dispatchNo: 'D3' });
  await act(() => talk.login());
}

beforeEach(() => {
  harness.transport = new FakeTransport();
});
afterEach(() => act(() => talk.stop()));

describe('SOS banner', () => {
  test('an escalated alarm is marked as such; one not escalated is not', () => {
    const view = renderWithProviders(<SosBanner sos={[alarm('ManDown')]} onJump={() => undefined} />);
    expect(screen.queryByTestId('sos-escalated')).toBeNull();
    view.unmount();
    renderWithProviders(<SosBanner sos={[{ ...alarm('ManDown'), Escalated: true }]} onJump={() => undefined} />);
    expect(screen.getByTestId('sos-escalated').textContent).toBe(english('alarms.escalated'));
  });

  test('Answer takes the emergency call, and Space then talks in it', async () => {
    const jumps: number[] = [];
    renderWithProviders(
      <>
        <SosBanner sos={[alarm('SOS')]} onJump={(uid) => jumps.push(uid)} />
        <PushToTalkKey />
      </>,
    );
    await loggedIn();
    expect(screen.getByText(english('sos.title_sos', { count: 1, phone: '13800000009' }))).toBeTruthy();
    expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.no_call'));
    expect(screen.queryByTestId('sos-answer')).toBeNull();
    harness.transport.emit({ event: 'callStart', cid: CALL, from: 9, name: 'Patrol 9', emergency: true });
    expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.offered'));
    // Offered, not yet taken: Space talks nowhere.
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    fireEvent.keyUp(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    fireEvent.click(screen.getByTestId('sos-answer'));
    await waitFor(() => expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.answered')));
    expect(screen.queryByTestId('sos-answer')).toBeNull();
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    await waitFor(() => expect(harness.transport.calls).toContain(`applyMic ${CALL}`));
    fireEvent.keyUp(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    await waitFor(() => expect(harness.transport.calls).toContain(`freeMic ${CALL}`));
    expect(harness.transport.calls).toEqual([`answerCall ${CALL}`, `applyMic ${CALL}`, `freeMic ${CALL}`]);
    // The call ends: the banner says so and offers no answer.
    harness.transport.emit({ event: 'callEnd', cid: CALL });
    expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.no_call'));
  });

  test('Listen hears without taking the call; Locate and Track go to the user; keyboard reaches them', async () => {
    const jumps: number[] = [];
    renderWithProviders(
      <>
        <SosBanner sos={[alarm('SOS')]} onJump={(uid) => jumps.push(uid)} />
        <Where />
      </>,
    );
    await loggedIn();
    harness.transport.emit({ event: 'callStart', cid: CALL, from: 9, name: 'Patrol 9', emergency: true });
    fireEvent.click(screen.getByTestId('sos-listen'));
    expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.listening'));
    expect(screen.queryByTestId('sos-listen')).toBeNull();
    expect(harness.transport.calls).toEqual([]);
    expect(talk.getState().current).toBeNull();
    // Buttons are real buttons: focusable, and Enter clicks them in a browser.
    const locate = screen.getByTestId('sos-locate');
    expect(locate.tagName).toBe('BUTTON');
    fireEvent.click(locate);
    expect(jumps).toEqual([9]);
    fireEvent.click(screen.getByTestId('sos-track'));
    expect(screen.getByTestId('where').textContent).toBe('/main/trace?uid=9');
  });

  test('a ManDown alarm shows its own title; a call of another user is not offered here', async () => {
    renderWithProviders(<SosBanner sos={[alarm('ManDown', 2), alarm('SOS', 1)]} onJump={() => undefined} />);
    await loggedIn();
    expect(screen.getByText(english('sos.title_man_down', { count: 2, phone: '13800000009' }))).toBeTruthy();
    harness.transport.emit({ event: 'callStart', cid: CALL, from: 10, name: 'Patrol 10', emergency: true });
    expect(screen.queryByTestId('sos-answer')).toBeNull();
    // A plain private call from the user is no emergency call either.
    harness.transport.emit({ event: 'callStart', cid: CALL + 1, from: 9, name: 'Patrol 9' });
    expect(screen.queryByTestId('sos-answer')).toBeNull();
  });

  test('a refused answer (the call already ended) leaves the call unanswered', async () => {
    renderWithProviders(<SosBanner sos={[alarm('SOS')]} onJump={() => undefined} />);
    await loggedIn();
    harness.transport.answerCall = (cid: number) => {
      harness.transport.calls.push(`answerCall ${cid}`);
      return Promise.reject(Object.assign(new Error('not_found'), { code: 'not_found' }));
    };
    harness.transport.emit({ event: 'callStart', cid: CALL, from: 9, name: 'Patrol 9', emergency: true });
    fireEvent.click(screen.getByTestId('sos-answer'));
    await waitFor(() => expect(harness.transport.calls).toEqual([`answerCall ${CALL}`]));
    expect(screen.getByTestId('sos-call-state').textContent).toBe(english('sos.offered'));
    expect(talk.getState().current).toBeNull();
  });
});
