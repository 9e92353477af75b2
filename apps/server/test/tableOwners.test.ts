import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 53, goal 2: a table with an owner is read and written by its owner's folder only; the others
// call the owner (docs/server-layout.md). Migrations, which create and alter every table, are exempt.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const OWNERS: Record<string, string> = { notification: 'modules/notify/' };

/** Files (relative to src) whose Kysely queries name `table`. */
function queriesOf(table: string, files: string[], read: (file: string) => string): string[] {
  const query = new RegExp(`\\.(?:selectFrom|insertInto|updateTable|deleteFrom)\\(\\s*'${table}'`);
  return files.filter((file) => query.test(read(file)));
}

const sources = (fs.readdirSync(src, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => !file.startsWith('db/migrations/'));
const readSource = (file: string) => fs.readFileSync(path.join(src, file), 'utf8');

describe('table owners', () => {
  it.each(Object.entries(OWNERS))('only %s’s owner (%s) queries it', (table, owner) => {
    const outside = queriesOf(table, sources, readSource).filter((file) => !file.startsWith(owner));
    expect(outside).toEqual([]);
  });

  it('sees a query of the table outside its owner (positive control)', () => {
    const stray = "await db.selectFrom('notification').selectAll().execute();";
    expect(queriesOf('notification', ['bus/stray.ts'], () => stray)).toEqual(['bus/stray.ts']);
  });
});
