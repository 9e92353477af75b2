import { INTERFACE_LANGUAGES } from '@intercom/contract';

/** Interface languages (DESIGN.md section 9; the contract's list, which the map tiles name countries in). */
export const LANGUAGES = INTERFACE_LANGUAGES;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language named in itself, so anyone can find theirs whatever is showing now. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '简体中文',
  es: 'Español',
  ja: '日本語',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a browser tag such as `zh-CN` or `es-419` to an interface language. */
export function languageOfTag(tag: string): Language | undefined {
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : undefined;
}

/** Stored choice, else the first browser language we speak, else English (SPEC.md section 1). */
export function pickLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}
