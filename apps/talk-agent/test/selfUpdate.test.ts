import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type Agent } from '../src/agent.js';
import { PACKAGE_PATH, isSecureUpdateUrl, updateDir, updateTarget } from '../src/selfUpdate.js';
import { AGENT_VERSION } from '../src/version.js';
import { signPackage } from '../../../scripts/talkAgentSigning.mjs';
import { AgentClient, tempDir } from './agentFixtures.js';

// Update refuses what it cannot trust: a package without the build's signature, one changed after
// signing, a download over plain http from another computer, an update folder others could write.
// A throwaway key pair stands for the release key; the agent is told to trust it through a hook that
// is not on the command line.
const release = crypto.generateKeyPairSync('ed25519');
const stranger = crypto.generateKeyPairSync('ed25519');
const script = Buffer.from('#!/usr/bin/env node\nconsole.log("talk agent 9.9.9");\n');
const VERSION = '9.9.9';

/** What the fake platform serves at /api/Plugin/Package. */
let served: { content: Buffer; signature?: string } = { content: script };
let requests = 0;
const platform = http.createServer((req, res) => {
  requests += 1;
  if (req.url !== PACKAGE_PATH) return void res.writeHead(404).end();
  const headers: Record<string, string> = { 'x-talk-agent-version': VERSION };
  if (served.signature) headers['x-talk-agent-signature'] = served.signature;
  res.writeHead(200, headers).end(served.content);
});
let origin: string;
const dir = tempDir();
const agents: Agent[] = [];
const clients: AgentClient[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const agent of agents.splice(0)) await agent.close();
});
afterAll(async () => {
  await new Promise((resolve) => platform.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const signed = (content: Buffer, key = release.privateKey) => signPackage(key, VERSION, content).signature;

/** An agent of `server` trusting the release key, its updates in `folder`, and a monitor connection. */
async function agentOf(
  options: { server?: string; allowUnsignedUpdate?: true; folder?: string } = {},
): Promise<{ client: AgentClient; restarted: string[]; folder: string }> {
  const server = options.server ?? origin;
  const folder = options.folder ?? fs.mkdtempSync(path.join(dir, 'home-'));
  const restarted: string[] = [];
  const agent = await startAgent(
    {
      server,
      allowOrigins: [server],
      monitorPort: 0,
      talkPort: 0,
      ...(options.allowUnsignedUpdate ? { allowUnsignedUpdate: true as const } : {}),
    },
    {
      audio: { microphone: undefined, speaker: { name: 'test', write() {}, close() {} } },
      restart: (file) => restarted.push(file),
      updateDir: path.join(folder, 'updates'),
      updateKeys: [release.publicKey],
    },
  );
  agents.push(agent);
  const client = await AgentClient.connect(agent.monitorPort, server);
  clients.push(client);
  return { client, restarted, folder };
}

/** Update's reply and the `update` event that ends it. */
async function update(client: AgentClient) {
  const reply = await client.command('Update', {}, 15_000);
  const end = await client.next((m) => m.event === 'update' && m.state !== 'updating');
  return { reply, end };
}

describe('Update checks the signature', () => {
  it('installs a package signed with a trusted key, in an owner-only folder whatever the umask', async () => {
    served = { content: script, signature: signed(script) };
    const previous = process.umask(0o022);
    try {
      const { client, restarted, folder } = await agentOf();
      const { reply, end } = await update(client);
      expect(reply).toMatchObject({ ok: true, version: AGENT_VERSION, update: VERSION });
      expect(end).toMatchObject({ state: 'success', version: VERSION });
      const target = updateTarget(path.join(folder, 'updates'));
      expect(fs.readFileSync(target)).toEqual(script);
      expect(fs.statSync(path.join(folder, 'updates')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(target).mode & 0o777).toBe(0o600);
      await expect.poll(() => restarted).toEqual([target]);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing update folder that others could read', async () => {
    served = { content: script, signature: signed(script) };
    const folder = fs.mkdtempSync(path.join(dir, 'home-'));
    fs.mkdirSync(path.join(folder, 'updates'), { mode: 0o755 });
    fs.chmodSync(path.join(folder, 'updates'), 0o755);
    const { client } = await agentOf({ folder });
    expect((await update(client)).end).toMatchObject({ state: 'success' });
    expect(fs.statSync(path.join(folder, 'updates')).mode & 0o777).toBe(0o700);
  });

  it.each([
    [
      'changed after signing',
      () => ({ content: Buffer.concat([script, Buffer.from('evil();\n')]), signature: signed(script) }),
    ],
    ['signed with another key', () => ({ content: script, signature: signed(script, stranger.privateKey) })],
    ['carrying a signature that is not one', () => ({ content: script, signature: 'AAAA' })],
  ])('refuses a package %s, even with --allow-unsigned-update', async (_name, serve) => {
    for (const allowUnsignedUpdate of [undefined, true as const]) {
      served = serve();
      const { client, restarted, folder } = await agentOf({ allowUnsignedUpdate });
      const { reply, end } = await update(client);
      expect(reply).toMatchObject({ ok: false, code: 'update_bad_signature' });
      expect(end).toMatchObject({ state: 'failed', code: 'update_bad_signature' });
      expect(fs.existsSync(path.join(folder, 'updates'))).toBe(false);
      expect(restarted).toEqual([]);
    }
  });

  it('refuses an unsigned package unless started with --allow-unsigned-update', async () => {
    served = { content: script };
    const strict = await agentOf();
    const { reply, end } = await update(strict.client);
    expect(reply).toMatchObject({ ok: false, code: 'update_unsigned', message: expect.stringContaining('not signed') });
    expect(end).toMatchObject({ state: 'failed', code: 'update_unsigned' });
    expect(strict.restarted).toEqual([]);

    const lenient = await agentOf({ allowUnsignedUpdate: true });
    expect((await update(lenient.client)).reply).toMatchObject({ ok: true, update: VERSION });
    await expect.poll(() => lenient.restarted).toHaveLength(1);
  });

  it('refuses a folder that is a symbolic link', async () => {
    served = { content: script, signature: signed(script) };
    const folder = fs.mkdtempSync(path.join(dir, 'home-'));
    const elsewhere = fs.mkdtempSync(path.join(dir, 'elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(folder, 'updates'));
    const { client, restarted } = await agentOf({ folder });
    expect((await update(client)).reply).toMatchObject({ ok: false, code: 'update_unsafe_dir' });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(restarted).toEqual([]);
  });
});

describe('Update needs https except on this computer', () => {
  it.each([
    ['https://dispatch.example.com', true],
    ['http://127.0.0.1:8080', true],
    ['http://127.1.2.3', true],
    ['http://localhost:8080', true],
    ['http://[::1]:8080', true],
    ['http://dispatch.example.com', false],
    ['http://10.0.0.5:8080', false],
    ['http://127.0.0.1.example.com', false],
    ['ftp://127.0.0.1', false],
  ])('%s: %s', (url, secure) => {
    expect(isSecureUpdateUrl(new URL(url))).toBe(secure);
  });

  it('refuses to download over plain http from another computer, before asking it anything', async () => {
    const server = 'http://dispatch.example';
    const { client, restarted } = await agentOf({ server, allowUnsignedUpdate: true });
    const before = requests;
    const { reply, end } = await update(client);
    expect(reply).toMatchObject({ ok: false, code: 'update_insecure' });
    expect(end).toMatchObject({ state: 'failed', code: 'update_insecure' });
    expect(requests).toBe(before);
    expect(restarted).toEqual([]);
  });
});

describe('the update folder', () => {
  it("is the user's own, never the shared temporary folder", () => {
    const home = process.env.HOME;
    process.env.HOME = path.join(dir, 'someone');
    try {
      expect(updateDir()).toBe(path.join(dir, 'someone', '.intercom-talk-agent', 'updates'));
      expect(updateTarget()).toBe(path.join(updateDir(), 'talk-agent.mjs'));
    } finally {
      if (home === undefined) delete process.env.HOME;
      else process.env.HOME = home;
    }
    expect(updateTarget().startsWith(os.tmpdir())).toBe(false);
  });
});
