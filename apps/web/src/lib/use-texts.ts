import i18next, { type TFunction } from 'i18next';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}

const currentLanguage = () => i18next.language;
const translate: TFunction = i18next.t.bind(i18next) as TFunction;

/**
 * The texts' `t` for components drawn by the hundred, such as the tiles of Show all.
 * react-i18next's `useTranslation` copies the i18next instance's properties on every mount,
 * about a tenth of a millisecond each: three per tile made opening a space of 500 links one
 * long task. This hook only subscribes to the language, and renders again when it changes.
 */
export function useTexts(): TFunction {
  useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  return translate;
}
