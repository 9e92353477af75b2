import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
  child.stderr.on('data', (chunk: Buffer) => {
    output += String(chunk);
    stderrOf.set(child, output);
  });
  const [chunk] = (await Promise.race([
    once(child.stdout, 'data'),
    once(child, 'exit').then(() => {
      throw new Error(`the agent exited: ${output}`);
    }),
  ])) as [Buffer];
  expect(String(chunk)).toContain('monitor ws://127.0.0.1:12001');
  return child;
}

/** What each agent wrote to stderr, for the error when it does not stop. */
const stderrOf = new WeakMap<ChildProcess, string>();

/** What the agent has written to stderr so far (its log), for a failed test's report. */
export function talkAgentLog(child: ChildProcess | undefined): string {
  return child ? (stderrOf.get(child) ?? '') : '';
}

/** How long an agent may take to log its seat out and exit after SIGTERM. */
const EXIT_GRACE_MS = 10_000;

/**
 * SIGTERM (the agent logs its seat out) and wait until it has exited and freed its ports. An agent
 * still running 10 s later fails the test with its open sockets and its stderr (and is killed).
 */
export async function stopTalkAgent(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const late = new Promise<'late'>((resolve) => setTimeout(resolve, EXIT_GRACE_MS, 'late').unref());
  if ((await Promise.race([exited, late])) !== 'late') return;
  const sockets = spawnSync('ss', ['-tanp'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes(`pid=${child.pid},`));
  child.kill('SIGKILL');
  await exited;
  throw new Error(
    `the talk agent did not exit within ${EXIT_GRACE_MS} ms of SIGTERM; its sockets then:\n${sockets.join('\n')}\n` +
      `its stderr: ${stderrOf.get(child) ?? ''}`,
  );
}
