import fs from 'node:fs';

/** Clock ticks a second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  pid: number;
  parent: number;
  /** The Chromium process's role: gpu-process, renderer, utility, or browser. */
  kind: string;
  ticks: number;
}

function processTimes(): ProcessTimes[] {
  const all: ProcessTimes[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields follow its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const kind = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
      all.push({ pid: Number(name), parent: Number(fields[1]), kind, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** This process's Chromium descendants (the browser the test launched), by role. */
function chromiumTicks(): Map<string, number> {
  const all = processTimes();
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all)
      if (!mine.has(entry.pid) && mine.has(entry.parent)) {
        mine.add(entry.pid);
        grew = true;
      }
  }
  const byKind = new Map<string, number>();
  for (const entry of all)
    if (entry.pid !== process.pid && mine.has(entry.pid))
      byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + entry.ticks);
  return byKind;
}

/**
 * The CPU the Chromium launched by this test process uses while `wait` runs, in percent of one
 * core by process role (gpu-process, renderer, ...), read from /proc before and after.
 */
export async function chromiumCpu(wait: () => Promise<void>): Promise<Record<string, number>> {
  const before = chromiumTicks();
  const start = performance.now();
  await wait();
  const seconds = (performance.now() - start) / 1000;
  const after = chromiumTicks();
  const percent: Record<string, number> = {};
  for (const [kind, ticks] of after)
    percent[kind] = Math.round(((ticks - (before.get(kind) ?? 0)) / TICKS_PER_SECOND / seconds) * 100);
  return percent;
}
