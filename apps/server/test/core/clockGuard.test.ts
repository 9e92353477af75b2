import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TIME_ALLOW_LIST } from './timeAllowList.js';

// Issue 50, goal 1: every timing rule reads the injected clock (src/core/clock.ts). Server source
// outside it may read the time or set a timer only where timeAllowList.ts says, as often as it says.
// The list can only shrink: a file that needs fewer than its allowance fails too, until the number
// is lowered, so a rule moved onto the clock never quietly moves back.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const CALLS = /\bDate\.now\(|\bsetTimeout\(|\bsetInterval\(/g;

function uses(): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of fs.readdirSync(src, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts') || file === path.join('core', 'clock.ts')) continue;
    const text = fs.readFileSync(path.join(src, file), 'utf8');
    const count = text.match(CALLS)?.length ?? 0;
    if (count > 0) found.set(file.split(path.sep).join('/'), count);
  }
  return found;
}

describe('the clock guard', () => {
  const found = uses();

  it('finds no Date.now, setTimeout or setInterval beyond the allow-list', () => {
    const over = [...found].filter(([file, count]) => count > (TIME_ALLOW_LIST[file] ?? 0));
    expect(
      over.map(([file, count]) => `${file}: ${count} (allowed ${TIME_ALLOW_LIST[file] ?? 0}); read AppDeps.clock`),
    ).toEqual([]);
  });

  it('has an allow-list no larger than what the source uses (lower the number when a rule moves to the clock)', () => {
    const slack = Object.entries(TIME_ALLOW_LIST).filter(([file, allowed]) => (found.get(file) ?? 0) < allowed);
    expect(slack.map(([file, allowed]) => `${file}: uses ${found.get(file) ?? 0}, allowed ${allowed}`)).toEqual([]);
  });

  it('sees a use it is not allowed (positive control)', () => {
    const sample = 'const t = Date.now(); setTimeout(f, 1); setInterval(g, 2); const u = notDate.now;';
    expect(sample.match(CALLS)).toHaveLength(3);
  });
});
