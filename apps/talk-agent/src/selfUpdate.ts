import type { KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TalkAgentErrors, type MonitorAgentEvent } from '@intercom/contract';
import { AgentError } from './agentError.js';
import { verifyPackage } from './updateSignature.js';
import { AGENT_VERSION, IS_BUNDLE } from './version.js';

/** Where the server publishes the bundled agent (public: the agent has no token). */
export const PACKAGE_PATH = '/api/Plugin/Package';
export const VERSION_HEADER = 'x-talk-agent-version';
/** The build's Ed25519 signature of the package (base64), absent when the build was not signed. */
export const SIGNATURE_HEADER = 'x-talk-agent-signature';
export const UPDATE_FILE = 'talk-agent.mjs';

/**
 * The per-user folder updates are written to: never a shared temporary folder, where another user of
 * the computer could put their own script in the agent's way.
 */
export function updateDir(): string {
  return path.join(os.homedir(), '.intercom-talk-agent', 'updates');
}

/** The script an update writes and restarts on. */
export function updateTarget(dir = updateDir()): string {
  return path.join(dir, UPDATE_FILE);
}

const LOOPBACK = new Set(['localhost', '[::1]']);

/** Plain http only to this computer: anywhere else the download could be changed on the way. */
export function isSecureUpdateUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return LOOPBACK.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

export interface UpdateOptions {
  /** The platform's origin (--server). */
  server: string;
  /** The keys a package must be signed with (pinnedUpdateKeys(), or a test's). */
  keys: readonly KeyObject[];
  /** --allow-unsigned-update: take a package without a signature (or when no key is pinned). */
  allowUnsigned: boolean;
  /** Where to write the update (default updateDir()). */
  dir?: string;
}

export interface UpdateResult {
  version: string;
  /** The script to restart on; undefined when the running bundle is already that version. */
  script: string | undefined;
}

/**
 * Creates the update folder owner-only (0700, whatever the umask) and refuses one that is a symbolic
 * link or belongs to someone else: whoever can write there chooses the code the agent runs next.
 */
export function privateUpdateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const folder of [dir, path.dirname(dir)]) {
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory())
      throw new AgentError(TalkAgentErrors.updateUnsafeDir, `${folder} is not a folder (a symbolic link?)`);
    if (process.getuid && stat.uid !== process.getuid())
      throw new AgentError(TalkAgentErrors.updateUnsafeDir, `${folder} belongs to another user`);
  }
  if (process.platform !== 'win32' && (fs.statSync(dir).mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

function checkSignature(content: Buffer, version: string, signature: string | null, options: UpdateOptions): void {
  if (signature && options.keys.length > 0) {
    if (!verifyPackage(content, version, signature, options.keys))
      throw new AgentError(
        TalkAgentErrors.updateBadSignature,
        'the package does not match its signature with any key this agent trusts',
      );
    return;
  }
  if (options.allowUnsigned) return;
  throw new AgentError(
    TalkAgentErrors.updateUnsigned,
    signature
      ? 'this agent was built without an update key, so it cannot check the signature (--allow-unsigned-update)'
      : 'the package is not signed (start the agent with --allow-unsigned-update to take it anyway)',
  );
}

async function download(server: string): Promise<{ version: string; signature: string | null; content: Buffer }> {
  const url = new URL(PACKAGE_PATH, server);
  if (!isSecureUpdateUrl(url))
    throw new AgentError(TalkAgentErrors.updateInsecure, `updates need https (or a loopback address): ${url.origin}`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new AgentError(TalkAgentErrors.serverUnreachable, `the server did not answer: ${(error as Error).message}`);
  }
  // A redirect must not lead the download off https either.
  if (res.url && !isSecureUpdateUrl(new URL(res.url)))
    throw new AgentError(
      TalkAgentErrors.updateInsecure,
      `the server redirected the update to ${new URL(res.url).origin}`,
    );
  const version = res.headers.get(VERSION_HEADER);
  if (!res.ok || !version)
    throw new AgentError(TalkAgentErrors.updateUnavailable, `the server has no package (HTTP ${res.status})`);
  return { version, signature: res.headers.get(SIGNATURE_HEADER), content: Buffer.from(await res.arrayBuffer()) };
}

/**
 * Update (monitor service): fetch the server's package, check its signature, and write it to the
 * per-user update folder (write then rename, so a failed download leaves the previous one). Progress
 * is told as `update` events: updating, then success (with the version) or failed (with the code).
 * Resolves with the script to restart on; rejects with the AgentError of a refusal.
 */
export async function selfUpdate(
  options: UpdateOptions,
  emit: (event: MonitorAgentEvent) => void,
): Promise<UpdateResult> {
  emit({ event: 'update', state: 'updating' });
  try {
    const { version, signature, content } = await download(options.server);
    checkSignature(content, version, signature, options);
    if (version === AGENT_VERSION && IS_BUNDLE) {
      emit({ event: 'update', state: 'success', version });
      return { version, script: undefined };
    }
    const dir = options.dir ?? updateDir();
    privateUpdateDir(dir);
    const target = updateTarget(dir);
    const temporary = `${target}.${process.pid}.download`;
    fs.writeFileSync(temporary, content, { mode: 0o600 });
    fs.renameSync(temporary, target);
    emit({ event: 'update', state: 'success', version });
    return { version, script: target };
  } catch (error) {
    const code = error instanceof AgentError ? error.code : 'internal';
    emit({ event: 'update', state: 'failed', code });
    throw error;
  }
}
