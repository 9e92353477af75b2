import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLIC_API_ROUTES, isPublicApiRoute } from '../src/auth/authPlugin.js';
import { useTestApp } from './useTestApp.js';

// docs/security.md "Public routes" names every route that answers without a console session (issue
// 48): the auth hook's public list and every route registered outside /api.
const doc = fs.readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
const section = doc.slice(
  doc.indexOf('\n## Public routes'),
  doc.indexOf('\n## ', doc.indexOf('\n## Public routes') + 1),
);

const t = useTestApp();

/** As the document writes a route: `{name}` for a parameter, `/api/docs/*` for the docs' own files. */
function documented(url: string): string {
  if (url.startsWith('/api/docs/')) return '/api/docs/*';
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

describe('docs/security.md "Public routes"', () => {
  it('names every route that needs no session', () => {
    expect(section.length).toBeGreaterThan(1000);
    const open = t.app.routeList
      .filter((r) => r.method !== 'HEAD')
      .map((r) => r.url)
      .filter((url) => !url.startsWith('/api/') || isPublicApiRoute(url));
    // The walk must cover something real: the hub, the terminal gateway, the basemap, the probes.
    expect(open).toEqual(expect.arrayContaining(['/terminal', '/FuncService/negotiate', '/metrics', '/healthz']));
    const missing = [...new Set([...open, ...PUBLIC_API_ROUTES].map(documented))].filter(
      (path) => !new RegExp(`[\`/ ]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``).test(section),
    );
    expect(missing).toEqual([]);
  });
});
