import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from './constants';
import type { AdminTexts } from './locales/admin';
import { en, type FirstScreenTexts } from './locales/en';
import type { PanelTexts } from './locales/en-panels';

/** Every text of the default namespace: the first screen's and the panels'. */
export type Texts = FirstScreenTexts & PanelTexts;

/** The first supported language of the browser's preferences, else the default. */
export function detectLanguage(preferred: readonly string[] = navigator.languages ?? []): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base && (SUPPORTED_LANGUAGES as readonly string[]).includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The languages whose texts are written in that language. pt, fr and de carry the English
 * texts until translations exist (spec §1): a translation is added here, and only then do
 * pages in that language say so.
 */
const translations: Partial<Record<string, FirstScreenTexts>> = { en };

// A copy per language: i18next adds the panels' groups (registerPanelTexts) to the object it
// holds, and the module's texts stay the first screen's.
const resources = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [
    language,
    { translation: { ...(translations[language] ?? en) } },
  ]),
);

/**
 * The language the texts shown for `language` are written in: itself when it has a
 * translation of its own, else the default, whose texts stand in for it.
 */
export function textLanguage(language: string | undefined): string {
  const base = language?.toLowerCase().split('-')[0];
  return base && translations[base] ? base : DEFAULT_LANGUAGE;
}

/**
 * `<html lang>` names the language of the texts shown, not the one the browser asked for:
 * a screen reader picks its voice from it, and an English page read with a German voice is
 * not understood.
 */
function syncDocumentLanguage(language?: string) {
  document.documentElement.lang = textLanguage(language ?? i18next.resolvedLanguage);
}

export function initI18n(language = detectLanguage()) {
  if (!i18next.isInitialized) {
    // Registered before init, so the first language is written too; kept for later changes.
    i18next.on('languageChanged', syncDocumentLanguage);
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
  syncDocumentLanguage();
  return i18next;
}

/**
 * Adds texts that load later to `namespace` in every supported language (pt, fr and de carry
 * the English texts until translations exist): deep, and without overwriting, so adding the
 * same texts again changes nothing and groups already there stay as they are. The console
 * may be imported before the app started (a test): i18next adds its resource methods at init.
 */
function addEverywhere(namespace: 'translation' | 'admin', texts: object) {
  if (!i18next.isInitialized) initI18n();
  for (const language of SUPPORTED_LANGUAGES) {
    i18next.addResourceBundle(language, namespace, texts, true, false);
  }
}

/**
 * The texts of the panels, the setup screen and the invitation, beside the first screen's in
 * the default namespace (decision 0063). Called once, by `lib/panel-texts.ts`, which every
 * module that shows one of these texts imports.
 */
export function registerPanelTexts(texts: PanelTexts) {
  addEverywhere('translation', texts);
}

/** The texts of a part that loads later in a namespace of its own: the administration console. */
export function registerTexts(namespace: 'admin', texts: AdminTexts) {
  addEverywhere(namespace, texts);
}

// Translation keys are checked against the English texts: t('no.such.key') fails to compile.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Texts; admin: AdminTexts };
  }
}
