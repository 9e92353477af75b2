import {
  ChannelLogActions,
  GeofenceLogActions,
  GisLogActions,
  IncidentLogActions,
  LocationLogActions,
  MediaLogActions,
  NotifyLogActions,
  SafetyLogActions,
  SysLogActions,
  UserImportLogAction,
} from '@intercom/contract';
import type { i18n as I18n } from 'i18next';

/** Every action the server writes to the system log, in the order the filter lists them. */
export const LOG_ACTIONS: readonly string[] = [
  SysLogActions,
  ChannelLogActions,
  NotifyLogActions,
  LocationLogActions,
  MediaLogActions,
  GisLogActions,
  GeofenceLogActions,
  SafetyLogActions,
  IncidentLogActions,
  { userImport: UserImportLogAction },
].flatMap((group) => Object.values(group));

/** An action's translated name (`syslog.action.<name>`); an action a newer server added shows as is. */
export function actionLabel(i18n: I18n, action: string): string {
  const key = `syslog.action.${action}`;
  return i18n.exists(key) ? i18n.t(key) : action;
}

/** Summary fields the server writes as `[before, after]`: shown as "before → after". */
const CHANGE_FIELDS = new Set(['IsLock', 'Caps', 'GPSConfig', 'Record', 'Disabled', 'State', 'ICCID']);

function translated(i18n: I18n, key: string, fallback: string): string {
  return i18n.exists(key) ? i18n.t(key) : fallback;
}

function valueText(i18n: I18n, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'reason' && typeof value === 'string') return translated(i18n, `syslog.reason.${value}`, value);
  if (typeof value === 'boolean') return i18n.t(value ? 'common.yes' : 'common.no');
  if (CHANGE_FIELDS.has(field) && Array.isArray(value) && value.length === 2) {
    return `${valueText(i18n, '', value[0])} → ${valueText(i18n, '', value[1])}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Summaries are mostly JSON objects: show them as `field: value` pairs with the field names the
 * console knows translated (`syslog.field.<name>`), the rest as stored.
 */
export function summaryText(i18n: I18n, summary: string): string {
  if (!summary.startsWith('{')) return summary;
  try {
    const parsed: unknown = JSON.parse(summary);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return summary;
    return Object.entries(parsed as Record<string, unknown>)
      .map(([field, value]) => `${translated(i18n, `syslog.field.${field}`, field)}: ${valueText(i18n, field, value)}`)
      .join(', ');
  } catch {
    return summary;
  }
}
