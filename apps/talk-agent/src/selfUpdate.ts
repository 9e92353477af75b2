import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MonitorAgentEvent } from '@intercom/contract';
import { AGENT_VERSION, IS_BUNDLE } from './version.js';

/** Where the server publishes the bundled agent (public: the agent has no token). */
export const PACKAGE_PATH = '/api/Plugin/Package';
export const VERSION_HEADER = 'x-talk-agent-version';

/** The script an update replaces: the running bundle, or (from source) a bundle in the temp folder. */
export function updateTarget(): string {
  if (IS_BUNDLE && process.argv[1]) return path.resolve(process.argv[1]);
  return path.join(os.tmpdir(), 'intercom-talk-agent', 'talk-agent.mjs');
}

/**
 * Update (monitor service): fetch the server's package; when its version differs, write it over the
 * running script (write then rename, so a failed download leaves the old one) and restart on it.
 * Progress is told as `update` events: updating, then success (with the version) or failed.
 */
export async function selfUpdate(
  server: string,
  emit: (event: MonitorAgentEvent) => void,
  restart: (script: string) => void,
  target = updateTarget(),
): Promise<void> {
  emit({ event: 'update', state: 'updating' });
  try {
    const res = await fetch(new URL(PACKAGE_PATH, server), { signal: AbortSignal.timeout(60_000) });
    const version = res.headers.get(VERSION_HEADER);
    if (!res.ok || !version) throw new Error(`the server has no package (HTTP ${res.status})`);
    const script = Buffer.from(await res.arrayBuffer());
    if (version === AGENT_VERSION && IS_BUNDLE) {
      emit({ event: 'update', state: 'success', version });
      return;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.download`;
    fs.writeFileSync(temporary, script);
    fs.renameSync(temporary, target);
    emit({ event: 'update', state: 'success', version });
    restart(target);
  } catch {
    emit({ event: 'update', state: 'failed' });
  }
}
