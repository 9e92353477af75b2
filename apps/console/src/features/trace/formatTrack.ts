import type { TFunction } from 'i18next';

/** "2 h 5 min", "12 min 30 s", "45 s": a span as a dispatcher reads it. */
export function formatSpan(t: TFunction, ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return t('trace.span_hm', { h, m });
  if (m > 0) return t('trace.span_ms', { m, s });
  return t('trace.span_s', { s });
}

/** Metres as kilometres with one decimal, below 1 km as whole metres. */
export function formatDistance(t: TFunction, metres: number): string {
  return metres >= 1000
    ? t('trace.km', { value: (metres / 1000).toFixed(1) })
    : t('trace.m', { value: Math.round(metres) });
}

export function formatSpeed(t: TFunction, kmh: number): string {
  return t('trace.kmh', { value: kmh.toFixed(1) });
}
