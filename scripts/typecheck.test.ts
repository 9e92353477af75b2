import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * scripts/typecheck.mjs: several projects checked in one process, their parsed files shared. Each
 * test starts the script (Node and TypeScript) once or twice: 1.5-3 s on an idle machine, and past
 * Vitest's default 5 s bound beside CI's other passes (a run of 8 December failed so).
 */
const SPAWNS_TIMEOUT_MS = 60_000;
const script = path.join(import.meta.dirname, 'typecheck.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'typecheck-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A project folder under the temporary directory: its tsconfig.json and files. */
function project(name: string, tsconfig: object, files: Record<string, string> = {}): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), text);
  return folder;
}

function typecheck(...folders: string[]) {
  const result = spawnSync(process.execPath, [script, ...folders], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

fs.writeFileSync(path.join(dir, 'shared.ts'), 'export function double(x) {\n  return x * 2;\n}\n');
// No DOM library and no @types: each run parses only what the test writes and ES2022's library.
const options = { target: 'ES2022', lib: ['ES2022'], module: 'ESNext', moduleResolution: 'Bundler', types: [] };

describe('scripts/typecheck.mjs', () => {
  it(
    'checks each project under its own options, and fails on an error with its file, line and code',
    () => {
      const clean = project(
        'clean',
        { compilerOptions: { ...options, strict: true } },
        { 'a.ts': 'export const a = 1;\n' },
      );
      const broken = project('broken', { compilerOptions: options }, { 'b.ts': "export const b: number = 'x';\n" });
      // A file two projects share is parsed once and checked by each: only the strict one finds x untyped.
      const include = ['*.ts', '../shared.ts'];
      const loose = project(
        'loose',
        { compilerOptions: { ...options, strict: false }, include },
        { 'l.ts': 'export {};\n' },
      );
      const strict = project(
        'strict',
        { compilerOptions: { ...options, strict: true }, include },
        { 's.ts': 'export {};\n' },
      );
      expect(typecheck(clean, loose)).toEqual({
        status: 0,
        output: expect.stringMatching(/clean: 1 files, 0 errors[^]*loose: 2 files, 0 errors/) as string,
      });
      const { status, output } = typecheck(broken, strict, clean);
      expect(status).toBe(1);
      expect(output).toMatch(/b\.ts\(1,14\): error TS2322/);
      expect(output).toMatch(/shared\.ts\(1,24\): error TS7006/);
      expect(output).toMatch(/strict: 2 files, 1 errors/);
      // The projects after a failed one are still checked.
      expect(output).toMatch(/clean: 1 files, 0 errors/);
    },
    SPAWNS_TIMEOUT_MS,
  );

  it(
    'fails on a tsconfig.json with an unknown option, and without a project',
    () => {
      const odd = project('odd', { compilerOptions: { ...options, notAnOption: true } }, { 'o.ts': 'export {};\n' });
      const { status, output } = typecheck(odd);
      expect(status).toBe(1);
      expect(output).toMatch(/Unknown compiler option 'notAnOption'/);
      expect(typecheck().status).toBe(2);
    },
    SPAWNS_TIMEOUT_MS,
  );
});
