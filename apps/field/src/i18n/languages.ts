import { INTERFACE_LANGUAGES } from '@intercom/contract';

/** The interface languages (the contract's list, as the console's). */
export const LANGUAGES = INTERFACE_LANGUAGES;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language named in itself. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '简体中文', es: 'Español', ja: '日本語' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored choice, else the first browser language spoken here (`zh-CN` → `zh`), else English. */
export function pickLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}
