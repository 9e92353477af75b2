import fs from 'node:fs';

export type Language = 'en' | 'zh' | 'es' | 'ja';

type Messages = { [key: string]: string | Messages };

const localeDir = new URL('../../apps/console/src/i18n/locales/', import.meta.url);
const cache = new Map<Language, Messages>();

function messagesOf(language: Language): Messages {
  let messages = cache.get(language);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(new URL(`${language}.json`, localeDir), 'utf8')) as Messages;
    cache.set(language, messages);
  }
  return messages;
}

/**
 * The text a person sees for an i18n key, read from the console's own locale files so a reworded
 * message does not break a test, while a missing key or an untranslated screen still does.
 */
export function text(language: Language, key: string, params: Record<string, string | number> = {}): string {
  return lookup(messagesOf(language), `locale ${language}`, key, params);
}

function lookup(messages: Messages, where: string, key: string, params: Record<string, string | number>): string {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`${where} has no text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(params[name] ?? whole));
}

const fieldLocaleDir = new URL('../../apps/field/src/i18n/locales/', import.meta.url);

/** The field app's text of `key` in its namespace file (`apps/field/src/i18n/locales/<language>/<namespace>.json`). */
export function fieldText(
  language: Language,
  namespace: string,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const file = new URL(`${language}/${namespace}.json`, fieldLocaleDir);
  const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
  return lookup(messages, `field ${language}/${namespace}`, key, params);
}

/** English text of a key (most tests read the console in English). */
export const en = (key: string, params?: Record<string, string | number>) => text('en', key, params);
