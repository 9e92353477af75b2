import { StorageKeys } from '@intercom/contract';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readPreference, writePreference } from '../shared/storage/localPreference';
import { loadAntdLocale, wantAntdLocales } from './antdLocales';
import { FALLBACK_LANGUAGE, pickLanguage, type Language } from './languages';
import enLogin from 'virtual:login-messages/en';

type Messages = Resource[string]['translation'];
type Loader = () => Promise<{ default: Messages }>;

/**
 * Two sizes of each locale: the login subset (LOGIN_NAMESPACES, English in the first chunk) and
 * the whole file, loaded once a session starts. Both come from the same `locales/<lang>.json`.
 */
const loginLoaders: Record<Exclude<Language, 'en'>, Loader> = {
  zh: () => import('virtual:login-messages/zh'),
  es: () => import('virtual:login-messages/es'),
  ja: () => import('virtual:login-messages/ja'),
};

const fullLoaders: Record<Language, Loader> = {
  en: () => import('./locales/en.json'),
  zh: () => import('./locales/zh.json'),
  es: () => import('./locales/es.json'),
  ja: () => import('./locales/ja.json'),
};

const dayjsLocaleLoaders: Record<Exclude<Language, 'en'>, { name: string; load: () => Promise<unknown> }> = {
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  es: { name: 'es', load: () => import('dayjs/locale/es') },
  ja: { name: 'ja', load: () => import('dayjs/locale/ja') },
};

/** Whether the signed-in screens are in use: from then on every language loads whole. */
let wantFull = false;
/** `<language>:login` and `<language>:full` bundles already added to i18next. */
const bundles = new Set<string>(['en:login']);

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

async function loadMessages(language: Language): Promise<void> {
  const size = wantFull ? 'full' : 'login';
  if (bundles.has(`${language}:${size}`) || bundles.has(`${language}:full`)) return;
  const loader = size === 'full' ? fullLoaders[language] : loginLoaders[language as Exclude<Language, 'en'>];
  const messages = await loader();
  i18n.addResourceBundle(language, 'translation', messages.default, true, true);
  bundles.add(`${language}:${size}`);
}

async function loadLanguage(language: Language, withDates = true): Promise<void> {
  await Promise.all([
    loadMessages(language),
    loadAntdLocale(language),
    withDates ? setDayjsLocale(language) : undefined,
  ]);
}

/**
 * Every text of the current language, antd's too (the locale test keeps every locale complete, so English is
 * not fetched as well). The signed-in screens wait for it; the login page never pays for it.
 */
export async function loadAllMessages(): Promise<void> {
  wantFull = true;
  wantAntdLocales();
  try {
    await Promise.all([loadMessages(currentLanguage()), loadAntdLocale(currentLanguage())]);
  } catch {
    // A chunk that fails to load leaves the login texts; the screens still open.
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

/** Initialises i18next with the detected language; resolves once its login texts are there. */
export async function initI18n(): Promise<Language> {
  const language = pickLanguage(readPreference(StorageKeys.language), navigator.languages ?? [navigator.language]);
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: enLogin } },
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
