import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { call } from './helper.js';
import { useTestApp } from './useTestApp.js';

// deploy/grafana-dashboard.json: valid JSON whose every query names a metric this server exports; so do
// the alert rules docs/operations.md suggests.
const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy/grafana-dashboard.json');

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { refId: string; expr: string }[];
}

const t = useTestApp();

/** Metric families as /metrics declares them (`# TYPE name kind`), with their kinds. */
async function exported(): Promise<Map<string, string>> {
  const res = await call(t.app, { method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const families = new Map<string, string>();
  for (const match of res.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(match[1] ?? '', match[2] ?? '');
  return families;
}

/** Every metric each query names is exported, with the kind the query treats it as. */
function checkExported(families: Map<string, string>, queries: { panel: string; expr: string }[]): void {
  for (const { panel, expr } of queries) {
    const names = [...expr.matchAll(/\bintercom_[a-z0-9_]+/g)].map((m) => m[0]);
    expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
    for (const name of names) {
      const histogram = /_(bucket|sum|count)$/.exec(name) ? name.replace(/_(bucket|sum|count)$/, '') : null;
      const kind = families.get(name) ?? (histogram ? families.get(histogram) : undefined);
      expect(kind, `${panel}: ${name} is not exported`).toBeDefined();
      if (histogram && !families.has(name)) expect(kind, `${panel}: ${name}`).toBe('histogram');
      // rate() over a counter or histogram series only; a gauge is read as it is.
      if (expr.includes(`rate(${name}`)) expect(['counter', 'histogram'], `${panel}: rate(${name})`).toContain(kind);
    }
  }
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(fs.readFileSync(FILE, 'utf8')) as { panels: Panel[] };
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((target) => ({ panel: p.title, ...target })));

  it('queries only metrics the server exports, histograms through their buckets', async () => {
    expect(queries.length).toBeGreaterThan(20);
    checkExported(await exported(), queries);
  });

  it('the alerts docs/operations.md suggests query exported metrics too', async () => {
    const docs = fs.readFileSync(path.join(path.dirname(FILE), '../docs/operations.md'), 'utf8');
    const rules = [...docs.matchAll(/^ +- alert: (\w+).*\n +expr: (.+)$/gm)].map((m) => ({
      panel: m[1] ?? '',
      expr: m[2] ?? '',
    }));
    expect(rules.map((r) => r.panel)).toEqual(
      expect.arrayContaining(['FloorGrantSlow', 'AudioFramesDropped', 'HistoryQueueGrowing', 'HubClientsBehind']),
    );
    checkExported(await exported(), rules);
  });

  it('has talk and video rows, unique panel ids and no overlapping panels', () => {
    const rows = dashboard.panels.filter((p) => p.type === 'row').map((p) => p.title);
    expect(rows).toEqual(expect.arrayContaining([expect.stringMatching(/^Talk/), 'Video']));
    for (const prefix of ['intercom_talk_', 'intercom_video_']) {
      expect(queries.some((q) => q.expr.includes(prefix))).toBe(true);
    }
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const { gridPos, title } of dashboard.panels) {
      expect(gridPos.x + gridPos.w, title).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x += 1) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y += 1) {
          expect(cells.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });
});
