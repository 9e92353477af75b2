import { TerminalRequestError } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import type { FieldSession } from '../session/fieldSession';
import type { CameraParts } from './cameraSender';
import { FieldCamera } from './fieldCamera';

/** A signed-in session whose socket refuses `videoCaps` as the server does for a user without rights. */
function fakeSession(refusal?: string) {
  const handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  const requests: unknown[] = [];
  const ready: (() => void)[] = [];
  const socket = {
    isOpen: true,
    on: (event: string, handler: (...args: unknown[]) => void) => {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      return () =>
        handlers.set(
          event,
          (handlers.get(event) ?? []).filter((h) => h !== handler),
        );
    },
    request: (message: unknown) => {
      requests.push(message);
      return refusal
        ? Promise.reject(new TerminalRequestError(refusal, 'only video group members support video'))
        : Promise.resolve({ type: 'ack' });
    },
  };
  const session = {
    socket,
    state: { kind: 'signedIn', online: true },
    onReady: (listener: () => void) => {
      ready.push(listener);
      return () => ready.splice(ready.indexOf(listener), 1);
    },
  } as unknown as FieldSession;
  const emit = (event: string, ...args: unknown[]) => (handlers.get(event) ?? []).forEach((h) => h(...args));
  return { session, requests, emit, ready, listening: () => [...handlers.values()].flat().length };
}

/** Parts whose camera opens at once and records what was stopped. */
function parts(stops: string[]): CameraParts {
  return {
    openCamera: () => Promise.resolve({ grab: () => ({}) as CanvasImageSource, stop: () => stops.push('camera') }),
    encoder: () => ({ encode: () => undefined, backlog: 0, close: () => stops.push('encoder') }),
    sendFrame: () => true,
    busy: () => false,
    now: () => 0,
    every: () => () => stops.push('timer'),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the field app as a video terminal', () => {
  it('announces its codecs on a signed-in socket and after each login; a not_video_member answer is quiet', async () => {
    const fake = fakeSession('not_video_member');
    const camera = new FieldCamera(fake.session, parts([]), () => Promise.resolve(['h264', 'jpeg']));
    const stop = camera.start();
    await settle();
    fake.ready.forEach((listener) => listener());
    await settle();
    expect(fake.requests).toEqual([
      { type: 'videoCaps', codecs: ['h264', 'jpeg'] },
      { type: 'videoCaps', codecs: ['h264', 'jpeg'] },
    ]);
    expect(camera.view).toEqual({ state: 'off' });
    stop();
    expect(fake.listening()).toBe(0);
    expect(fake.ready).toEqual([]);
  });

  it('announces nothing without a camera', async () => {
    const fake = fakeSession();
    new FieldCamera(fake.session, parts([]), () => Promise.resolve([])).start();
    await settle();
    expect(fake.requests).toEqual([]);
  });

  it('starts on videoStart in its codec, stops on videoStop, on a closed socket and when the screen goes', async () => {
    const stops: string[] = [];
    const fake = fakeSession();
    const camera = new FieldCamera(fake.session, parts(stops), () => Promise.resolve(['jpeg']));
    const stop = camera.start();
    fake.emit('push', { type: 'videoStart', codec: 'jpeg' });
    await settle();
    expect(camera.view).toEqual({ state: 'on', codec: 'jpeg' });
    fake.emit('push', { type: 'videoStop' });
    expect(camera.view).toEqual({ state: 'off' });
    expect(stops.sort()).toEqual(['camera', 'encoder', 'timer']);

    fake.emit('push', { type: 'videoStart', codec: 'jpeg' });
    await settle();
    fake.emit('close', 1006, '');
    expect(camera.view).toEqual({ state: 'off' });

    fake.emit('push', { type: 'videoStart', codec: 'jpeg' });
    await settle();
    stop();
    expect(camera.view).toEqual({ state: 'off' });
    expect(stops).toHaveLength(9);
  });
});
