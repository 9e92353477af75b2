import { describe, expect, it } from 'vitest';
import { VideoOutbox } from '../../src/video/videoOutbox.js';

/** A socket whose writes complete only when the test says so. */
function slowSink() {
  const pending: (() => void)[] = [];
  const written: number[] = [];
  return {
    pending,
    written,
    sink: {
      send(data: Buffer, done: (error?: Error) => void) {
        written.push(data[0] as number);
        pending.push(() => done());
      },
    },
  };
}

const frame = (id: number) => Buffer.from([id, 0, 0, 0]);

describe('VideoOutbox', () => {
  it('starts at a key frame, and when full drops what waits and resumes at the next key frame', () => {
    const { sink, pending, written } = slowSink();
    const outbox = new VideoOutbox(sink, { maxInFlightBytes: 8, maxQueued: 3 });
    outbox.push(frame(1), false); // before any key frame: dropped
    outbox.push(frame(2), true);
    outbox.push(frame(3), false); // two frames (8 bytes) in the socket
    for (const id of [4, 5, 6]) outbox.push(frame(id), false); // waiting
    expect(outbox.queued).toBe(3);
    outbox.push(frame(7), false); // full: 4, 5, 6 and 7 go
    expect(outbox.queued).toBe(0);
    outbox.push(frame(8), false); // still waiting for a key frame
    outbox.push(frame(9), true);
    outbox.push(frame(10), false);
    for (const done of pending.splice(0)) done();
    for (const done of pending.splice(0)) done();
    expect(written).toEqual([2, 3, 9, 10]);
    expect(outbox.dropped).toBe(6);
  });

  it('sends nothing after close', () => {
    const { sink, written } = slowSink();
    const outbox = new VideoOutbox(sink);
    outbox.close();
    outbox.push(frame(1), true);
    expect(written).toEqual([]);
  });
});
