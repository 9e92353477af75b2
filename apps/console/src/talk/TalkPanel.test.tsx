import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FakeTalkTransport, logInSeat } from '../../test/fakeTalk';
import { english, renderWithProviders } from '../../test/renderWithProviders';
import type { TalkClient } from './TalkClient';

const harness = vi.hoisted(() => ({ transport: null as unknown as FakeTalkTransport, secure: true }));

vi.mock('./talk', async () =>
  (await import('../../test/fakeTalk')).fakeTalkModule(
    () => harness.transport,
    () => Promise.resolve(harness.secure ? null : 'insecure_context'),
  ),
);

const { talk } = (await import('./talk')) as { talk: TalkClient };
const { TalkPanel } = await import('./TalkPanel');
const { PushToTalkKey } = await import('./PushToTalkKey');

async function loggedInOnChannel(transport: FakeTalkTransport) {
  await logInSeat(talk, transport);
  await act(() => talk.groupCall(42, 'North gate'));
}

beforeEach(() => {
  harness.transport = new FakeTalkTransport();
  harness.secure = true;
});
afterEach(() => act(() => talk.stop()));

describe('talk panel', () => {
  test('without a seat it says the account is not logged in and offers browser talk when no agent answers', async () => {
    renderWithProviders(<TalkPanel />);
    talk.start();
    act(() => harness.transport.sink?.connection('disconnected'));
    expect(await screen.findByText(english('talk.no_agent'))).toBeTruthy();
    expect(screen.getByTestId('talk-use-browser').textContent).toBe(english('talk.use_browser'));
    expect(screen.getByText(english('talk.status.not_logged_in'))).toBeTruthy();
    expect(screen.getByTestId('talk-ptt').hasAttribute('disabled')).toBe(true);
  });

  test('shows who holds the floor, for how long, and an idle floor', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    expect(await screen.findByText('North gate')).toBeTruthy();
    expect(screen.getByText(english('talk.status.idle'))).toBeTruthy();
    harness.transport.emit({ event: 'floorTaken', cid: 42, uid: 7, name: 'Patrol 7', priority: 3 });
    expect(
      await screen.findByText(english('talk.status.user_speaking_named', { name: 'Patrol 7', duration: '0:00' })),
    ).toBeTruthy();
    harness.transport.emit({ event: 'floorIdle', cid: 42 });
    expect(await screen.findByText(english('talk.status.idle'))).toBeTruthy();
  });

  test('Space held asks for the floor and its release frees it, but never while typing in a field', async () => {
    renderWithProviders(
      <>
        <input aria-label={'notes'} />
        <TalkPanel />
        <PushToTalkKey />
      </>,
    );
    await loggedInOnChannel(harness.transport);
    const field = screen.getByLabelText('notes');
    fireEvent.keyDown(field, { key: ' ', code: 'Space', keyCode: 32 });
    fireEvent.keyUp(field, { key: ' ', code: 'Space', keyCode: 32 });
    expect(harness.transport.calls.filter((call) => call.includes('Mic'))).toEqual([]);

    fireEvent.keyDown(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space', keyCode: 32, repeat: true });
    await waitFor(() => expect(screen.getByText(english('talk.ptt_talking'))).toBeTruthy());
    act(() => harness.transport.sink?.event({ event: 'micLevel', level: 0.5 }));
    expect(screen.getByTestId('talk-level')).toBeTruthy();
    fireEvent.keyUp(document.body, { key: ' ', code: 'Space', keyCode: 32 });
    await waitFor(() => expect(harness.transport.calls).toContain('freeMic 42'));
    expect(harness.transport.calls.filter((call) => call.includes('Mic'))).toEqual(['applyMic 42', 'freeMic 42']);
  });

  test('the on-screen button talks while pressed (pointer or touch)', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    const button = screen.getByTestId('talk-ptt');
    fireEvent.pointerDown(button, { pointerId: 1, pointerType: 'touch' });
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('true'));
    fireEvent.pointerUp(button, { pointerId: 1, pointerType: 'touch' });
    await waitFor(() => expect(harness.transport.calls).toContain('freeMic 42'));
  });

  test('pre-emption is said plainly', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    await act(() => talk.applyMic());
    harness.transport.emit({ event: 'floorRevoked', cid: 42, reason: 'preempted' });
    const notice = await screen.findByTestId('talk-preempted');
    expect(notice.textContent).toContain(
      english('talk.status.preempted', { reason: english('talk.reason.preempted') }),
    );
    expect(screen.getByText(english('talk.ptt_hold'))).toBeTruthy();
  });

  test('monitored channels are listed with their floors, and a private call becomes the current call', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    await act(() =>
      talk.monitor(
        [5, 6],
        new Map([
          [5, 'East'],
          [6, 'West'],
        ]),
      ),
    );
    const monitored = await screen.findByTestId('talk-monitored');
    expect(monitored.textContent).toContain('East');
    expect(monitored.textContent).toContain('West');
    harness.transport.emit({ event: 'floorTaken', cid: 6, uid: 9, name: 'Patrol 9', priority: 1 });
    expect(screen.getByTestId('talk-floor-6').textContent).toContain('Patrol 9');
    await act(() => talk.privateCall(9, 'Patrol 9'));
    expect(screen.getByTestId('talk-current').textContent).toContain(english('talk.call_with', { name: 'Patrol 9' }));
  });

  test('an emergency call stays offered until answered, then is the current call, named as one', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    const cid = 0x8000_0009;
    harness.transport.emit({ event: 'callStart', cid, from: 9, name: 'Patrol 9', emergency: true });
    // Offered, not taken: push-to-talk still talks in the channel.
    expect(screen.getByTestId('talk-current').textContent).toContain('North gate');
    await act(() => talk.answerCall(cid));
    expect(harness.transport.calls).toContain(`answerCall ${cid}`);
    const current = screen.getByTestId('talk-current').textContent;
    expect(current).toContain(english('talk.current_emergency'));
    expect(current).toContain(english('talk.emergency_call_with', { name: 'Patrol 9' }));
  });

  test('a channel the seat was removed from leaves the panel; an incident channel shows under its name', async () => {
    renderWithProviders(<TalkPanel />);
    await loggedInOnChannel(harness.transport);
    harness.transport.emit({ event: 'regrouped', cid: 77, name: 'Fire at pier 4', incident: 5 });
    expect(await screen.findByText('Fire at pier 4')).toBeTruthy();
    harness.transport.emit({ event: 'channelLeft', cid: 42, reason: 'removed' });
    expect(talk.getState().current).toBeNull();
    expect(talk.getState().floors.has(42)).toBe(false);
    expect(screen.queryByText('North gate')).toBeNull();
  });

  test('a command without a seat gives the SPEC text and nothing is sent', async () => {
    const statuses: string[] = [];
    const off = talk.onStatus((status) => statuses.push(status.key));
    talk.start();
    act(() => harness.transport.sink?.connection('connected'));
    await expect(talk.groupCall(1)).rejects.toThrow();
    act(() => harness.transport.sink?.connection('disconnected'));
    await expect(talk.groupCall(1)).rejects.toThrow();
    off();
    expect(statuses).toEqual(['talk_connected', 'not_logged_in', 'talk_disconnected', 'not_connected']);
    expect(harness.transport.calls).toEqual([]);
  });
});
