import { describe, expect, it } from 'vitest';
import { AudioOutbox } from '../../src/talk/audioOutbox.js';

// A listener's bounded queue: a slow socket loses its own oldest frames, in order otherwise.
function slowSink() {
  const written: (number | string)[] = [];
  const pending: (() => void)[] = [];
  return {
    written,
    sink: {
      send(data: Buffer | string, done: (error?: Error) => void) {
        written.push(typeof data === 'string' ? data : (data[0] as number));
        pending.push(() => done());
      },
    },
    /** The socket flushes what it holds. */
    flush() {
      for (const done of pending.splice(0)) done();
    },
  };
}

describe('AudioOutbox', () => {
  it('writes at once while the socket keeps up', () => {
    const s = slowSink();
    const box = new AudioOutbox(s.sink, 2, 3);
    box.push(Buffer.from([1]));
    s.flush();
    box.push(Buffer.from([2]));
    expect(s.written).toEqual([1, 2]);
    expect(box.dropped).toBe(0);
  });

  it('queues behind the frames in flight and drops the oldest waiting frame when full', () => {
    const s = slowSink();
    const box = new AudioOutbox(s.sink, 2, 3);
    for (let i = 1; i <= 8; i += 1) box.push(Buffer.from([i]));
    // 1 and 2 in the socket; 3..8 competed for 3 places: 3, 4 and 5 were dropped.
    expect(s.written).toEqual([1, 2]);
    expect(box.dropped).toBe(3);
    expect(box.queued).toBe(3);
    s.flush();
    s.flush();
    expect(s.written).toEqual([1, 2, 6, 7, 8]);
    expect(box.queued).toBe(0);
  });

  it('keeps a floor event behind the frames queued before it, and never drops it', () => {
    const s = slowSink();
    const box = new AudioOutbox(s.sink, 2, 3);
    for (let i = 1; i <= 4; i += 1) box.push(Buffer.from([i]));
    box.push('idle');
    expect(s.written).toEqual([1, 2]);
    s.flush();
    expect(s.written).toEqual([1, 2, 3, 4]);
    s.flush();
    expect(s.written).toEqual([1, 2, 3, 4, 'idle']);

    // A full queue with the event at its head writes the event rather than dropping it.
    const t = slowSink();
    const full = new AudioOutbox(t.sink, 1, 2);
    full.push(Buffer.from([1]));
    full.push('taken');
    full.push(Buffer.from([2]));
    full.push(Buffer.from([3]));
    expect(t.written).toEqual([1, 'taken']);
    expect(full.dropped).toBe(0);
    full.push(Buffer.from([4]));
    expect(full.dropped).toBe(1);
    t.flush();
    t.flush();
    expect(t.written).toEqual([1, 'taken', 3, 4]);
  });

  it('counts a bundle as its frames: the queue holds as many frames, and losing one loses both', () => {
    const s = slowSink();
    const box = new AudioOutbox(s.sink, 1, 4);
    box.push(Buffer.from([1]), 2);
    // 4 frames' room behind the write in flight: two bundles fit, a third pushes out the oldest.
    box.push(Buffer.from([2]), 2);
    box.push(Buffer.from([3]), 2);
    expect(box.dropped).toBe(0);
    box.push(Buffer.from([4]), 2);
    expect(box.dropped).toBe(2);
    expect(box.queued).toBe(2);
    // A single frame beside two bundles: the oldest bundle goes for it.
    box.push(Buffer.from([5]));
    expect(box.dropped).toBe(4);
    s.flush();
    s.flush();
    s.flush();
    expect(s.written).toEqual([1, 4, 5]);
  });

  it('stops writing once closed or after a failed write', () => {
    const s = slowSink();
    const box = new AudioOutbox({ send: (_d, done) => done(new Error('gone')) }, 1, 2);
    box.push(Buffer.from([1]));
    box.push(Buffer.from([2]));
    expect(box.queued).toBe(0);
    const open = new AudioOutbox(s.sink, 1, 2);
    open.close();
    open.push(Buffer.from([1]));
    expect(s.written).toEqual([]);
  });
});
