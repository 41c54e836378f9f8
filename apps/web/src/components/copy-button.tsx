import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPIED_NOTICE_MS } from '../lib/constants';
import '../lib/panel-texts';

interface Props {
  text: string;
  /** The button's name; 'Copy' unless told. */
  label?: string;
  /**
   * A fuller name for screen readers, when a page has several copy buttons; it starts with
   * the visible words, so that a spoken command finds the button too.
   */
  accessibleName?: string;
}

/** Copies a text to the clipboard and says so (or says to copy it by hand). */
export function CopyButton({ text, label, accessibleName }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), COPIED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <span className="copy-button">
      <button
        type="button"
        className="button"
        aria-label={accessibleName}
        onClick={() => void copy()}
      >
        {label ?? t('settings.copy')}
      </button>
      <span role="status" className="hint">
        {state === 'copied' ? t('settings.copied') : null}
        {state === 'failed' ? t('settings.copyFailed') : null}
      </span>
    </span>
  );
}
