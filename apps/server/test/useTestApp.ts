import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp, type TestAppOptions } from './testApp.js';

/** Anything a test file starts once and closes at the end: a TestApp, a HubTestApp, a pair of apps. */
interface Closable {
  close(): Promise<void>;
}

/**
 * The app of a test file (or of a `describe` block): built in `beforeAll`, closed in `afterAll`, and
 * used as a plain value in between, so a file's header is one line instead of the beforeAll/afterAll
 * pair. `useTestApp()` or `useTestApp(options)` builds with buildTestApp; `useTestApp(() => start())`
 * with any other starter (startHubApp, startTerminalApp, ...). More setup that needs the app goes in
 * a `beforeAll` after this call: hooks run in the order they were registered, and this one's
 * `afterAll` runs last.
 *
 * The value is a stand-in that reads the app once `beforeAll` has built it; touching it before (at
 * a file's top level) throws.
 */
export function useTestApp(options?: TestAppOptions): TestApp;
export function useTestApp<T extends Closable>(start: () => Promise<T>): T;
export function useTestApp<T extends Closable>(start: TestAppOptions | (() => Promise<T>) = {}): T {
  const make = typeof start === 'function' ? start : () => buildTestApp(start) as unknown as Promise<T>;
  let built: T | undefined;
  beforeAll(async () => {
    built = await make();
  });
  afterAll(async () => {
    const app = built;
    built = undefined;
    await app?.close();
  });
  const current = (): T => {
    if (!built) throw new Error('useTestApp: the app exists from beforeAll to afterAll; use it inside a test or hook');
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key) as unknown,
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      // A proxy may report a property only as configurable as its (empty) target allows.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * A temporary directory of a test file (or `describe` block), for what its app serves or reads: made
 * at once, so its path can go into the options of a `useTestApp` that follows, and removed in
 * `afterAll` (after the apps registered later have closed).
 */
export function useTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
