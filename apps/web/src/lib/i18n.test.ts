import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { detectLanguage, initI18n, textLanguage } from './i18n';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('the page language', () => {
  it('is the language the texts are written in: English for pt, fr and de', () => {
    expect(textLanguage('en')).toBe('en');
    expect(textLanguage('en-GB')).toBe('en');
    expect(textLanguage('de')).toBe('en');
    expect(textLanguage('pt-BR')).toBe('en');
    expect(textLanguage('fr')).toBe('en');
    expect(textLanguage('xx')).toBe('en');
    expect(textLanguage(undefined)).toBe('en');
  });

  it('says en on <html> in a German browser, whose texts are English', async () => {
    expect(detectLanguage(['de-DE', 'de'])).toBe('de');
    document.documentElement.lang = 'xx';
    await i18next.changeLanguage(detectLanguage(['de-DE', 'de']));
    initI18n();
    expect(i18next.language).toBe('de');
    expect(i18next.t('login.title')).toBe('Sign in');
    expect(document.documentElement.lang).toBe('en');
  });

  it('stays right when the language changes later', async () => {
    document.documentElement.lang = 'xx';
    await i18next.changeLanguage('fr');
    expect(i18next.t('add.submit')).toBe('Add');
    expect(document.documentElement.lang).toBe('en');
    document.documentElement.lang = 'xx';
    await i18next.changeLanguage('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
