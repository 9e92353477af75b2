import { StorageKeys } from '@intercom/contract';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readPreference, writePreference } from '../shared/storage/localPreference';
import { loadAntdLocale } from './antdLocales';
import { FALLBACK_LANGUAGE, pickLanguage, type Language } from './languages';
import en from './locales/en.json';

type Messages = Resource[string]['translation'];

/** Only English ships in the first chunk; the others load when chosen. */
const messageLoaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  zh: () => import('./locales/zh.json'),
  es: () => import('./locales/es.json'),
  ja: () => import('./locales/ja.json'),
};

const dayjsLocaleLoaders: Record<Exclude<Language, 'en'>, { name: string; load: () => Promise<unknown> }> = {
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  es: { name: 'es', load: () => import('dayjs/locale/es') },
  ja: { name: 'ja', load: () => import('dayjs/locale/ja') },
};

/** dayjs speaks English by itself; it is loaded here only once another language was chosen. */
let dayjsLocalised = false;

async function setDayjsLocale(language: Language): Promise<void> {
  if (language === 'en') {
    if (dayjsLocalised) (await import('dayjs')).default.locale('en');
    return;
  }
  dayjsLocalised = true;
  const day = dayjsLocaleLoaders[language];
  const [{ default: dayjs }] = await Promise.all([import('dayjs'), day.load()]);
  dayjs.locale(day.name);
}

async function loadLanguage(language: Language, withDates = true): Promise<void> {
  if (language === 'en') {
    await Promise.all([loadAntdLocale('en'), withDates ? setDayjsLocale('en') : undefined]);
    return;
  }
  const [messages] = await Promise.all([
    messageLoaders[language](),
    loadAntdLocale(language),
    withDates ? setDayjsLocale(language) : undefined,
  ]);
  if (!i18n.hasResourceBundle(language, 'translation')) {
    i18n.addResourceBundle(language, 'translation', messages.default, true, true);
  }
}

/**
 * Date texts (month names, week start) in the current language. The signed-in screens call it
 * once; the login page has no dates, so its first paint does not wait for dayjs.
 */
export async function syncDateLocale(): Promise<void> {
  await setDayjsLocale(currentLanguage());
}

function applyToDocument(language: Language): void {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : language;
}

/** Initialises i18next with the detected language; resolves once its texts are there. */
export async function initI18n(): Promise<Language> {
  const language = pickLanguage(readPreference(StorageKeys.language), navigator.languages ?? [navigator.language]);
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  try {
    await loadLanguage(language, false);
    await i18n.changeLanguage(language);
  } catch {
    // A language chunk that fails to load (offline deploy gone stale) leaves English, never a blank page.
    await loadLanguage(FALLBACK_LANGUAGE, false);
  }
  applyToDocument(currentLanguage());
  return currentLanguage();
}

export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return pickLanguage(language, []);
}

/** Switches the language and stores the choice (SPEC.md section 9, item "language"). */
export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
  writePreference(StorageKeys.language, language);
  applyToDocument(language);
}

export { i18n };
