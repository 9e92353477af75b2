import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect, inject } from 'vitest';

/** The bundled talk agent the server hands out at /api/Plugin/Package. */
export const AGENT_BUNDLE = new URL('../../apps/talk-agent/dist/talk-agent.mjs', import.meta.url).pathname;

/**
 * Starts the downloaded script as an operator would (`node talk-agent.mjs --server <console> ...`)
 * and waits for its first line, which names the ports it listens on; fails with its stderr if it exits.
 */
export async function spawnTalkAgent(extraArgs: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [AGENT_BUNDLE, '--server', inject('baseUrl'), ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += String(chunk)));
  const [chunk] = (await Promise.race([
    once(child.stdout!, 'data'),
    once(child, 'exit').then(() => {
      throw new Error(`the agent exited: ${output}`);
    }),
  ])) as [Buffer];
  expect(String(chunk)).toContain('monitor ws://127.0.0.1:12001');
  return child;
}

/** SIGTERM (the agent logs its seat out) and wait until it has exited and freed its ports. */
export async function stopTalkAgent(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}
