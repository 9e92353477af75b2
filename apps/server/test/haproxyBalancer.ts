import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, root, untilReady } from './terminals/builtServer.js';

/** The HAProxy binary of Debian's package, when installed. */
export const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((file) => fs.existsSync(file));

/**
 * deploy/haproxy.cfg as shipped with the test's addresses: listen on `lbPort`, the instances on
 * `ports` (s1, s2, and from the third on `sN` lines added after s2's in each backend, as an operator
 * adds an instance), the runtime API on `socket` instead of /run/haproxy, the status page on
 * `statsPort`; no daemon, user or syslog.
 */
export function haproxyConfig(lbPort: number, ports: readonly number[], socket: string, statsPort: number): string {
  const lines: string[] = [];
  for (const line of fs.readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8').split('\n')) {
    if (/^\s*(user|group|daemon|log \/dev\/log)\b/.test(line)) continue;
    lines.push(line);
    if (!/^\s*server s2 10\.0\.0\.12:8080/.test(line)) continue;
    for (let n = 3; n <= ports.length; n++) {
      lines.push(line.replaceAll('s2', `s${n}`).replace('10.0.0.12:8080', `10.0.0.${10 + n}:8080`));
    }
  }
  let config = lines
    .join('\n')
    .replace(/stats socket \S+/, `stats socket ${socket}`)
    .replace('bind :80', `bind 127.0.0.1:${lbPort}`)
    .replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${statsPort}`);
  ports.forEach((port, i) => (config = config.replaceAll(`10.0.0.${11 + i}:8080`, `127.0.0.1:${port}`)));
  return config;
}

/** One request to the runtime API (`show stat`, `show servers state`, ...): its answer. */
function runtimeApi(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = net.connect(socket);
    let answer = '';
    client.on('connect', () => client.write(`${command}\n`));
    client.on('data', (data) => (answer += String(data)));
    client.on('end', () => resolve(answer));
    client.on('error', reject);
  });
}

export interface Balancer {
  url: string;
  /** HAProxy's view: `backend/server` -> status (`UP`, `DOWN`, `UP 1/2`, `NOLB`, `MAINT`, ...). */
  serverStates(): Promise<Map<string, string>>;
  stop(): Promise<void>;
}

/** HAProxy on deploy/haproxy.cfg in front of the instances on `ports` (two or more); resolves once it answers. */
export async function startBalancer(work: string, ports: readonly number[]): Promise<Balancer> {
  const lbPort = await freePort();
  const socket = path.join(work, 'haproxy.sock');
  const cfg = path.join(work, 'haproxy.cfg');
  fs.writeFileSync(cfg, haproxyConfig(lbPort, ports, socket, await freePort()));
  const check = spawnSync(HAPROXY ?? 'haproxy', ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration: ${check.stderr}`);
  const child: ChildProcess = spawn(HAPROXY ?? 'haproxy', ['-db', '-f', cfg], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${lbPort}`;
  await untilReady(child, url, 'haproxy');
  return {
    url,
    async serverStates() {
      const csv = await runtimeApi(socket, 'show stat');
      const states = new Map<string, string>();
      for (const line of csv.split('\n')) {
        const [backend, server, ...rest] = line.split(',');
        if (!backend || !server || backend.startsWith('#') || server === 'FRONTEND' || server === 'BACKEND') continue;
        states.set(`${backend}/${server}`, rest[15] ?? '?');
      }
      return states;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
