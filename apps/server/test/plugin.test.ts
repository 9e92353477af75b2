import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { colleague, data, org } from './channelFixtures.js';
import { useTempDir, useTestApp } from './useTestApp.js';

// /api/Plugin: the talk agent's package (apps/talk-agent, bundled by scripts/buildTalkAgent.mjs).
const dir = useTempDir('plugin-');
const script = '#!/usr/bin/env node\nconsole.log("talk agent");\n';
const signature = `${'A'.repeat(86)}==`;

beforeAll(() => {
  fs.writeFileSync(path.join(dir, 'talk-agent.mjs'), script);
  fs.writeFileSync(
    path.join(dir, 'talk-agent.json'),
    JSON.stringify({ version: '1.2.3', size: script.length, sha256: 'x' }),
  );
  fs.mkdirSync(path.join(dir, 'signed'));
  fs.writeFileSync(path.join(dir, 'signed', 'talk-agent.mjs'), script);
  fs.writeFileSync(
    path.join(dir, 'signed', 'talk-agent.json'),
    JSON.stringify({ version: '1.2.4', size: script.length, sha256: 'x', signature, keyId: '0123456789abcdef' }),
  );
});
const none = useTestApp({ env: { TALK_AGENT_DIR: path.join(dir, 'missing') } });
const built = useTestApp({ env: { TALK_AGENT_DIR: dir } });
const signed = useTestApp({ env: { TALK_AGENT_DIR: path.join(dir, 'signed') } });

describe('GET /api/Plugin/Info', () => {
  it('says plainly that the package is not available when the server has no build, to every role', async () => {
    const a = await org(none);
    const editor = await colleague(none, a, 'editor');
    expect(data(await editor.api.get('/api/Plugin/Info'))).toEqual({
      name: 'talk-agent',
      available: false,
      version: null,
      url: null,
      size: null,
      message: 'plugin.not_shipped',
      monitorPort: 12001,
      talkPort: 12002,
    });
    const res = await none.app.inject({ method: 'GET', url: '/api/Plugin/Package' });
    expect(res.statusCode).toBe(404);
  });

  it('offers the built package with its version and size; the download needs no token', async () => {
    const a = await org(built);
    expect(data(await a.api.get('/api/Plugin/Info'))).toMatchObject({
      available: true,
      version: '1.2.3',
      url: '/api/Plugin/Package',
      size: script.length,
      message: '',
    });
    const res = await built.app.inject({ method: 'GET', url: '/api/Plugin/Package' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-talk-agent-version']).toBe('1.2.3');
    expect(res.headers['content-disposition']).toContain('talk-agent.mjs');
    expect(res.body).toBe(script);
    expect(res.headers).not.toHaveProperty('x-talk-agent-signature');
    const unauthenticated = await built.app.inject({ method: 'GET', url: '/api/Plugin/Info' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it("serves the build's signature with the package, for the agent to check before it installs it", async () => {
    const res = await signed.app.inject({ method: 'GET', url: '/api/Plugin/Package' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-talk-agent-version']).toBe('1.2.4');
    expect(res.headers['x-talk-agent-signature']).toBe(signature);
    expect(res.body).toBe(script);
  });
});
