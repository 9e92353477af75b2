import type { i18n as I18n } from 'i18next';

/** An action's translated name (`syslog.action.<name>`); an action a newer server added shows as is. */
export function actionLabel(i18n: I18n, action: string): string {
  const key = `syslog.action.${action}`;
  return i18n.exists(key) ? i18n.t(key) : action;
}

/** Summaries are often JSON objects; show them as `key: value` pairs, anything else as stored. */
export function summaryText(summary: string): string {
  if (!summary.startsWith('{')) return summary;
  try {
    const parsed: unknown = JSON.parse(summary);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return summary;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.length === 0) return '';
    return entries
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(', ');
  } catch {
    return summary;
  }
}
