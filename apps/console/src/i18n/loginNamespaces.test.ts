import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MessageKeys } from '../../../../packages/contract/src/index.ts';
import { LOGIN_NAMESPACES } from './loginNamespaces';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files that run before sign-in: the login route and what it shows around the form. */
const LOGIN_ROUTE_FILES = [
  'app/App.tsx',
  'app/ApiEventBridge.tsx',
  'app/LoginRoute.tsx',
  'features/auth/LoginPage.tsx',
  'features/auth/LoginLanguageBar.tsx',
  'features/auth/api.ts',
  'shared/api/ApiError.ts',
  'shared/api/useErrorMessage.ts',
  'shared/ui/FullPageSpin.tsx',
];

const inLoginBundle = (key: string) => (LOGIN_NAMESPACES as readonly string[]).includes(key.split('.')[0] ?? '');

describe('the login bundle of each locale', () => {
  it('holds every key the login route names', () => {
    const pattern = /\b(?:t|tk)\(\s*(['"`])([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)\1/g;
    const outside = LOGIN_ROUTE_FILES.flatMap((file) =>
      [...readFileSync(path.join(srcDir, file), 'utf8').matchAll(pattern)]
        .map((match) => match[2]!)
        .filter((key) => !inLoginBundle(key))
        .map((key) => `${key} (${file})`),
    );
    expect(outside).toEqual([]);
  });

  it('holds every message a login or a failed connection may bring', () => {
    const loginMessages = Object.values(MessageKeys).filter((key) => /^(login|error)\./.test(key));
    expect(loginMessages.filter((key) => !inLoginBundle(key))).toEqual([]);
    expect(inLoginBundle(MessageKeys.failed)).toBe(true);
  });
});
