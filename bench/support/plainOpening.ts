// MAP_BENCH_PLAIN_OPENING of bench/map.ts: opening the map in a Chromium that no automation library
// drives. Playwright enables DevTools' Network domain in every page and worker, so Chromium copies
// every hub frame into DevTools events (at 50,000 users a 12.4 MB snapshot, then about 12 MB a
// second): on the hub worker's thread, the browser's main thread and the DevTools pipe, all on the
// cores the page needs. A dispatcher's browser does none of that. Here the bench attaches to the
// page's target only, with the Page, Runtime and Emulation domains, never Network.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { WEBGL_ARGS } from '../../e2e/support/chromium.js';
import { wsText } from './wsText.js';

interface CdpReply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** The least of a DevTools protocol client: commands over the browser's WebSocket, flat sessions. */
class Cdp {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve(result: Record<string, unknown>): void; reject(error: Error): void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const reply = JSON.parse(wsText(data)) as CdpReply;
      const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id);
      if (!waiter || reply.id === undefined) return;
      this.waiting.delete(reply.id);
      if (reply.error) waiter.reject(new Error(reply.error.message));
      else waiter.resolve(reply.result ?? {});
    });
  }

  static async connect(url: string): Promise<Cdp> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Cdp(socket);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  close(): void {
    this.socket.close();
  }
}

/** The WebGL renderer's name, as `bench/map.ts` checks it in the Playwright page. */
const RENDERER_EXPRESSION = `(() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
  return gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'none';
})()`;

/** The document's timing and the 8 requests that ended latest, as JSON text. */
const NETWORK_EXPRESSION = `JSON.stringify((() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const ms = (value) => Math.round(value);
  const latest = performance.getEntriesByType('resource')
    .sort((a, b) => b.responseEnd - a.responseEnd).slice(0, 8)
    .map((r) => new URL(r.name).pathname.slice(0, 40) + ' ' + ms(r.startTime) + '-' + ms(r.responseEnd));
  return { documentResponseEnd: nav ? ms(nav.responseEnd) : null, domContentLoaded: nav ? ms(nav.domContentLoadedEventEnd) : null, latest };
})())`;

export interface PlainOpeningOptions {
  /** The map page's URL. */
  url: string;
  /** The access token, set as the console's cookie. */
  token: string;
  /** The probe, evaluated in the page before the console's scripts. */
  probe: string;
  /** How long to wait for the first frame with every user. */
  timeoutMs?: number;
  /**
   * The browser's profile directory, kept after the opening: a later opening with the same one is a
   * dispatcher's browser started again (its HTTP cache and GPU shader cache on disk). Without it, a
   * new profile is made and removed: a browser that has never opened the console.
   */
  profile?: string;
  /** The probe's mark that ends the wait (default `allUsersFirstFrame`; `firstRender` for an empty map). */
  until?: string;
}

/**
 * Opens the map once in a fresh headless Chromium launched by the bench itself (the same flags,
 * viewport and renderer check as the Playwright run) and returns the probe's marks, ms since navigation start;
 * `allUsersFirstFrame` is missing when the users were not all drawn in time.
 */
export async function plainOpening(options: PlainOpeningOptions): Promise<Record<string, unknown>> {
  const profile = options.profile ?? fs.mkdtempSync(path.join(os.tmpdir(), 'map-plain-'));
  const child = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      ...WEBGL_ARGS,
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let cdp: Cdp | undefined;
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`chromium exited with ${code}: ${text.slice(-500)}`)));
    });
    cdp = await Cdp.connect(endpoint);
    const origin = new URL(options.url).origin;
    await cdp.send('Storage.setCookies', {
      cookies: [{ name: 'function_access_token', value: options.token, url: origin, sameSite: 'Strict' }],
    });
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    await cdp.send(
      'Emulation.setDeviceMetricsOverride',
      { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    // As the Playwright run does before it navigates: check the renderer in the blank page. A
    // dispatcher opens the map in a browser that is already running, its GPU process started;
    // without this, Chromium's start-up and SwiftShader's were counted in the first opening.
    const { result: gl } = (await cdp.send(
      'Runtime.evaluate',
      { expression: RENDERER_EXPRESSION, returnByValue: true },
      sessionId,
    )) as { result: { value?: string } };
    if (!String(gl.value).includes('SwiftShader')) throw new Error(`WebGL renderer is ${gl.value}, not SwiftShader`);
    await cdp.send('Page.enable', {}, sessionId);
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: options.probe }, sessionId);
    await cdp.send('Page.navigate', { url: options.url }, sessionId);
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    let marks: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      await sleep(200);
      const { result } = (await cdp.send(
        'Runtime.evaluate',
        { expression: 'JSON.stringify(window.mapProbe ? window.mapProbe.marks : {})', returnByValue: true },
        sessionId,
      )) as { result: { value?: string } };
      marks = JSON.parse(result.value ?? '{}') as Record<string, unknown>;
      if (marks[options.until ?? 'allUsersFirstFrame'] !== undefined) break;
    }
    // The page's long tasks up to that frame (start+duration, ms since navigation start).
    const { result: tasks } = (await cdp.send(
      'Runtime.evaluate',
      {
        expression: `JSON.stringify((window.mapProbe?.loadTaskStarts ?? []).map((start, i) => [start, window.mapProbe.loadTasks[i]]))`,
        returnByValue: true,
      },
      sessionId,
    )) as { result: { value?: string } };
    const end = typeof marks.allUsersFirstFrame === 'number' ? marks.allUsersFirstFrame : Infinity;
    const longTasks = (JSON.parse(tasks.value ?? '[]') as [number, number][])
      .filter(([start]) => start < end)
      .map(([start, duration]) => `${start}+${duration}`);
    // Where the page waited on the network: the document, and the requests that ended latest
    // (path, start and end in ms since navigation start).
    const { result: network } = (await cdp.send(
      'Runtime.evaluate',
      { expression: NETWORK_EXPRESSION, returnByValue: true },
      sessionId,
    )) as { result: { value?: string } };
    return { ...marks, longTasks, network: JSON.parse(network.value ?? '{}') as unknown };
  } finally {
    cdp?.close();
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    // Chromium's helper processes may still be writing their profile for a moment.
    await sleep(500);
    if (!options.profile) fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
