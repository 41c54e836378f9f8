import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from './constants';
import type { AdminTexts } from './locales/admin';
import { en, type Texts } from './locales/en';

/** The first supported language of the browser's preferences, else the default. */
export function detectLanguage(preferred: readonly string[] = navigator.languages ?? []): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base && (SUPPORTED_LANGUAGES as readonly string[]).includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

// pt, fr and de carry the English texts until translations exist (spec §1).
const resources = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [language, { translation: en }]),
);

export function initI18n(language = detectLanguage()) {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...SUPPORTED_LANGUAGES],
      interpolation: { escapeValue: false }, // React escapes; text is never HTML.
      initAsync: false,
      returnNull: false,
    });
  }
  document.documentElement.lang = i18next.language;
  return i18next;
}

/**
 * Adds the texts of a part that loads later (the administration console) in every
 * supported language; pt, fr and de carry the English texts until translations exist.
 */
export function registerTexts(namespace: 'admin', texts: AdminTexts) {
  // The console may be imported before the app started (a test): i18next adds its
  // resource methods at init.
  if (!i18next.isInitialized) initI18n();
  for (const language of SUPPORTED_LANGUAGES) {
    if (!i18next.hasResourceBundle(language, namespace)) {
      i18next.addResourceBundle(language, namespace, texts);
    }
  }
}

// Translation keys are checked against the English texts: t('no.such.key') fails to compile.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Texts; admin: AdminTexts };
  }
}
