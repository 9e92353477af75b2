import type { i18n as I18n } from 'i18next';

/** The values a server message's placeholders take (`{{max}}`). */
export type MessageParams = Record<string, string | number>;

/**
 * Translates a server message key with its params. A message that is not a known key (an older
 * server, a proxy) is shown as it came, never as a half-parsed key.
 */
export function translateMessage(i18n: I18n, key: string, params?: MessageParams): string {
  if (!key) return '';
  return i18n.exists(key) ? i18n.t(key, params ?? {}) : key;
}
