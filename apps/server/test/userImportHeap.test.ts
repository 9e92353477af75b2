import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.js';
import { tenant, uniquePhone } from './directoryFixtures.js';
import { csv, report, upload, type Cells } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';

/** Issue 33: a big import's garbage is collected once it is answered (the RSS budget of the import). */

const t = useTestApp({
  logger: { ...(loggerOptions('info') as object), stream: { write: (line: string) => void lines.push(line) } },
});
const lines: string[] = [];

interface Released {
  msg: string;
  heap: { beforeMiB: number; afterMiB: number; ms: number };
}

const releases = () =>
  lines.map((line) => JSON.parse(line) as Released).filter((l) => l.msg === 'heap released after a user import');

/** After the response is sent: the release runs in the response's onResponse hook. */
async function settled(count: number): Promise<void> {
  for (let i = 0; i < 1000 && releases().length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

function rows(count: number): Cells[] {
  return Array.from({ length: count }, () => {
    const phone = uniquePhone();
    return {
      UserName: `heap ${phone}`,
      MobilePhone: phone,
      Password: 'term-123',
      Department: 'Field/Crew',
      Remark: 'imported for the memory check',
    };
  });
}

describe('heap released after a big user import', () => {
  it('a file of 256 KiB or more: one full collection once answered, logged with the heap before and after', async () => {
    const a = await tenant(t, { quota: 10_000 });
    const file = csv(rows(4_000));
    expect(Buffer.byteLength(file)).toBeGreaterThan(256 * 1024);
    const answer = report(await upload(a.api, file, 'dryRun=true&createDepartments=true'));
    expect(answer.valid).toBe(4_000);
    await settled(1);
    const [released] = releases();
    expect(released?.heap.afterMiB).toBeLessThan(released?.heap.beforeMiB as number);
  });

  it('a small file: no collection', async () => {
    const a = await tenant(t, { quota: 100 });
    const before = releases().length;
    report(await upload(a.api, csv(rows(20)), 'dryRun=true&createDepartments=true'));
    await new Promise((r) => setTimeout(r, 100));
    expect(releases().length).toBe(before);
  });
});
