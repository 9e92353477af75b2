import type { Locale } from 'antd/es/locale';
import type { Language } from './languages';

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/locale/zh_CN'),
  es: () => import('antd/locale/es_ES'),
  ja: () => import('antd/locale/ja_JP'),
};

const loaded = new Map<Language, Locale | undefined>([['en', undefined]]);

/** Whether antd's texts are wanted yet: not on the login page, which loads no antd (issue 34). */
let wanted = false;

/** From now on loadAntdLocale loads (the signed-in screens call it, with loadAllMessages). */
export function wantAntdLocales(): void {
  wanted = true;
}

/**
 * antd's own texts (pagination, date pickers, empty states) for a language; English is built in.
 * Nothing before wantAntdLocales.
 */
export async function loadAntdLocale(language: Language): Promise<void> {
  if (!wanted || loaded.has(language) || language === 'en') return;
  loaded.set(language, (await loaders[language]()).default);
}

/** The loaded antd locale, undefined for English (antd's default). */
export function antdLocaleOf(language: Language): Locale | undefined {
  return loaded.get(language);
}
