import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, pickLanguage, type Language } from './languages';

/** Where the chosen language is kept on the device. */
const LANGUAGE_KEY = 'intercom.field.language';
/** The namespace of the app's own screens; other parts bring theirs (`talk`). */
export const DEFAULT_NAMESPACE = 'field';

type Messages = Record<string, unknown>;
/** Every `locales/<language>/<namespace>.json`, each its own small chunk, loaded for the language in use. */
const localeFiles = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

/** The namespaces found for `language`, with their loaders. */
function filesOf(language: Language): { namespace: string; load: () => Promise<Messages> }[] {
  const prefix = `./locales/${language}/`;
  return Object.entries(localeFiles)
    .filter(([file]) => file.startsWith(prefix))
    .map(([file, load]) => ({ namespace: file.slice(prefix.length, -'.json'.length), load }));
}

/** Every namespace of the language, added to i18next once. */
async function loadLanguage(language: Language): Promise<void> {
  await Promise.all(
    filesOf(language).map(async ({ namespace, load }) => {
      if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, await load());
    }),
  );
}

function readStored(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

function applyToDocument(language: Language): void {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : language;
}

/** Starts i18next in the stored or browser language, English as the fallback of every key. */
export async function initI18n(): Promise<Language> {
  const language = pickLanguage(readStored(), navigator.languages ?? [navigator.language]);
  await i18n.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    defaultNS: DEFAULT_NAMESPACE,
    ns: [DEFAULT_NAMESPACE],
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  try {
    await Promise.all([loadLanguage(FALLBACK_LANGUAGE), loadLanguage(language)]);
  } catch {
    // A chunk that fails (offline with a stale cache) leaves what loaded; keys show, never a blank page.
  }
  await i18n.changeLanguage(language);
  applyToDocument(language);
  return language;
}

/** The language in use. */
export function currentLanguage(): Language {
  return pickLanguage(i18n.resolvedLanguage ?? i18n.language, []);
}

/** Switches the language and keeps the choice on the device. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts this visit only.
  }
  applyToDocument(language);
}

export { i18n };
