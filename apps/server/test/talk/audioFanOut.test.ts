import { afterEach, describe, expect, it, vi } from 'vitest';
import { AudioFanOut } from '../../src/talk/audioFanOut.js';
import { IDLE } from '../../src/talk/floorMachine.js';
import type { TalkPeer } from '../../src/talk/talkPeer.js';
import { TalkRoom, floorLimits } from '../../src/talk/talkRoom.js';

// Who gets which frames, and how many at a time, in rooms over and under the bundle threshold.
afterEach(() => {
  vi.useRealTimers();
});

/** A listener whose outbox records each write as the frame numbers in it (a frame is its 1 byte). */
function peer(name: string, seat = false) {
  const writes: (number[] | string)[] = [];
  const listener = {
    talker: { key: name, uid: 0, name, priority: 0 },
    seat: seat ? { A_ID: 1 } : null,
    notify: (message: { type: string }) => writes.push(message.type),
    outbox: {
      push: (entry: Buffer | string, frames = 1) => {
        if (typeof entry === 'string') return writes.push(entry);
        expect(entry.length).toBe(frames);
        writes.push([...entry]);
      },
    },
  };
  return { peer: listener as unknown as TalkPeer, writes };
}

function room(...peers: TalkPeer[]): TalkRoom {
  const r = new TalkRoom(1, 1, 'group', floorLimits(60_000), false, 'C');
  for (const p of peers) r.listeners.set(p, 0);
  expect(r.floor).toBe(IDLE);
  return r;
}

const frame = (n: number) => Buffer.from([n]);

describe('AudioFanOut', () => {
  it('under the threshold every frame goes to every listener but the talker, one write each', () => {
    const [talker, a, b] = [peer('t'), peer('a'), peer('b')];
    const r = room(talker.peer, a.peer, b.peer);
    const fan = new AudioFanOut({ fromListeners: 4, holdMs: 25 });
    for (let n = 1; n <= 3; n += 1) fan.send(r, frame(n), talker.peer);
    expect(a.writes).toEqual([[1], [2], [3]]);
    expect(b.writes).toEqual([[1], [2], [3]]);
    expect(talker.writes).toEqual([]);
  });

  it('at the threshold terminals get pairs, seats every frame; the talker none', () => {
    vi.useFakeTimers();
    const [talker, a, seat] = [peer('t'), peer('a'), peer('s', true)];
    const r = room(talker.peer, a.peer, seat.peer);
    const fan = new AudioFanOut({ fromListeners: 3, holdMs: 25 });
    for (let n = 1; n <= 5; n += 1) fan.send(r, frame(n), talker.peer);
    expect(a.writes).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(seat.writes).toEqual([[1], [2], [3], [4], [5]]);
    // The fifth waits for a sixth, then goes alone.
    vi.advanceTimersByTime(24);
    expect(a.writes).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(a.writes).toEqual([[1, 2], [3, 4], [5]]);
    expect(talker.writes).toEqual([]);
  });

  it('frames from another instance (no talker here) pair up for everyone; a new talker never shares a write', () => {
    vi.useFakeTimers();
    const [a, b] = [peer('a'), peer('b')];
    const r = room(a.peer, b.peer);
    const fan = new AudioFanOut({ fromListeners: 2, holdMs: 25 });
    fan.send(r, frame(1), null);
    fan.send(r, frame(2), null);
    fan.send(r, frame(3), null);
    // b talks now: the held frame from the other instance goes alone first, and b does not hear its own.
    fan.send(r, frame(4), b.peer);
    fan.send(r, frame(5), b.peer);
    expect(a.writes).toEqual([[1, 2], [3], [4, 5]]);
    expect(b.writes).toEqual([[1, 2], [3]]);
  });

  it('a floor event writes the held frame first, and the threshold off (0) sends each frame at once', () => {
    vi.useFakeTimers();
    const [talker, a] = [peer('t'), peer('a')];
    const r = room(talker.peer, a.peer);
    new AudioFanOut({ fromListeners: 2, holdMs: 25 }).send(r, frame(1), talker.peer);
    r.tell({ type: 'floorIdle', cid: 1 });
    expect(a.writes).toEqual([[1], 'floorIdle']);
    vi.advanceTimersByTime(100);
    expect(a.writes).toHaveLength(2);

    const off = new AudioFanOut({ fromListeners: 0, holdMs: 25 });
    off.send(r, frame(2), talker.peer);
    off.send(r, frame(3), talker.peer);
    expect(a.writes.slice(2)).toEqual([[2], [3]]);
  });
});
