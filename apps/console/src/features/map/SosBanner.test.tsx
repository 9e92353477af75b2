import type { Notification } from '@intercom/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FakeTalkTransport, logInSeat } from '../../../test/fakeTalk';
import { english, renderWithProviders } from '../../../test/renderWithProviders';
import type { TalkClient } from '../../talk/TalkClient';

const CALL = 0x8000_0005;

const harness = vi.hoisted(() => ({ transport: null as unknown as FakeTalkTransport }));

vi.mock('../../talk/talk', async () =>
  (await import('../../../test/fakeTalk')).fakeTalkModule(() => harness.transport),
);

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
  await logInSeat(talk, harness.transport);
  // The tests look at the commands the banner caused, after the seat's login.
  harness.transport.calls.length = 0;
}

/** One SOS alarm's banner beside `other`, the seat logged in; resolves to where its jumps went. */
async function showSosBeside(other: ReactNode): Promise<number[]> {
  const jumps: number[] = [];
  renderWithProviders(
    <>
      <SosBanner sos={[alarm('SOS')]} onJump={(uid) => jumps.push(uid)} />
      {other}
    </>,
  );
  await loggedIn();
  return jumps;
}

beforeEach(() => {
  harness.transport = new FakeTalkTransport(CALL);
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
    await showSosBeside(<PushToTalkKey />);
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
    const jumps = await showSosBeside(<Where />);
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
