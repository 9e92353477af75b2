import { AlarmDetailLimits, type AlarmDetail } from '@intercom/contract';

/**
 * What an alarm says: a text as it came (a terminal's own SOS words), or details the platform writes
 * as a key and parameters (AlarmDetailKeys) with the same words in English for `Content`.
 */
export type AlarmContent = string | { text: string; detail: AlarmDetail };

/** Details in the reader's language; `english` is what search, export and older clients read. */
export function alarmText(key: string, params: AlarmDetail['params'], english: string): AlarmContent {
  const cut = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'string' ? value.slice(0, AlarmDetailLimits.textMax) : value,
    ]),
  );
  return { text: english, detail: { key, params: cut } };
}

/** `Content` and the stored `Detail` column of an alarm's content. */
export function splitContent(content: AlarmContent | undefined): { Content: string; Detail: AlarmDetail | null } {
  if (content === undefined) return { Content: '', Detail: null };
  return typeof content === 'string'
    ? { Content: content, Detail: null }
    : { Content: content.text, Detail: content.detail };
}

export function encodeDetail(detail: AlarmDetail | null): string | null {
  return detail ? JSON.stringify(detail) : null;
}
