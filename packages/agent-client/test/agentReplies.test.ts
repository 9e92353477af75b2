import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentCommandError } from '../src/index.js';
import { FakeAgent } from '../src/testing.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('AgentReplies: commands matched to their replies by id', () => {
  it('numbers the commands and settles each with the reply of its id, whatever the order', async () => {
    const agent = new FakeAgent();
    const first = agent.replies.command('Login', { Uid: 'a' });
    const second = agent.replies.request('Monitor', { Cids: [1] });
    expect(agent.sent).toEqual([
      { cmd: 'Login', id: 1, Uid: 'a' },
      { cmd: 'Monitor', id: 2, Cids: [1] },
    ]);
    agent.replies.receive({ id: 2, ok: false, code: 'not_logged_in' });
    agent.replies.receive({ id: 1, ok: true, seat: 'x' });
    await expect(first).resolves.toEqual({ id: 1, ok: true, seat: 'x' });
    await expect(second).resolves.toEqual({ id: 2, ok: false, code: 'not_logged_in' });
  });

  it('rejects a refused command with its code and message; an event is not a reply', async () => {
    const agent = new FakeAgent();
    const refused = agent.replies.command('Talk', { Cid: 3 });
    expect(agent.replies.receive({ event: 'floorTaken', cid: 3 })).toBe(false);
    agent.refuse('floor_taken', 'someone talks');
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentCommandError);
    expect(error).toMatchObject({ code: 'floor_taken', message: 'someone talks' });
  });

  it('fails a command on timeout or when the socket goes, with the caller error type', async () => {
    vi.useFakeTimers();
    class OwnError extends Error {
      constructor(readonly code: string) {
        super(code);
      }
    }
    const agent = new FakeAgent({ timeoutMs: 1_000, error: (code) => new OwnError(code) });
    const lateError = agent.replies.command('Login').catch((e: unknown) => e);
    vi.advanceTimersByTime(1_000);
    expect(await lateError).toMatchObject({ code: 'timeout' });
    const lost = agent.replies.command('Logout');
    agent.replies.failAll('server_unreachable');
    const lostError = await lost.catch((e: unknown) => e);
    expect(lostError).toBeInstanceOf(OwnError);
    expect(lostError).toMatchObject({ code: 'server_unreachable' });
    expect(agent.replies.waiting).toBe(0);
  });
});
