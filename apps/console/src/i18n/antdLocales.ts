import type { Locale } from 'antd/es/locale';
import type { Language } from './languages';

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/locale/zh_CN'),
  es: () => import('antd/locale/es_ES'),
  ja: () => import('antd/locale/ja_JP'),
};

const loaded = new Map<Language, Locale | undefined>([['en', undefined]]);

/** antd's own texts (pagination, date pickers, empty states) for a language; English is built in. */
export async function loadAntdLocale(language: Language): Promise<void> {
  if (loaded.has(language) || language === 'en') return;
  loaded.set(language, (await loaders[language]()).default);
}

/** The loaded antd locale, undefined for English (antd's default). */
export function antdLocaleOf(language: Language): Locale | undefined {
  return loaded.get(language);
}
