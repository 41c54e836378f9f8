import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { useTexts } from './use-texts';

afterEach(async () => {
  await act(() => i18next.changeLanguage('en'));
});

let renders = 0;
function Probe() {
  renders += 1;
  const t = useTexts();
  return <p>{t('login.title')}</p>;
}

describe('useTexts', () => {
  it('gives the texts, and renders again when the language changes', async () => {
    renders = 0;
    render(<Probe />);
    expect(screen.getByText('Sign in')).toBeInTheDocument();
    expect(renders).toBe(1);
    await act(() => i18next.changeLanguage('de'));
    expect(renders).toBe(2);
    expect(screen.getByText('Sign in')).toBeInTheDocument();
  });
});
