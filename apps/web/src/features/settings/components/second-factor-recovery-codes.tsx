import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import '../../../lib/panel-texts';

/** The recovery codes, shown once right after two-step sign-in was turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <div className="created-secret">
      <h4 ref={titleRef} tabIndex={-1}>
        {t('settings.secondFactor.recoveryTitle')}
      </h4>
      <p className="created-secret__warning">
        <strong>{t('settings.secondFactor.recoveryText')}</strong>
      </p>
      <ul className="recovery-codes" aria-label={t('settings.secondFactor.recoveryTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code className="secret-text">{code}</code>
          </li>
        ))}
      </ul>
      <div className="settings-form__actions">
        <CopyButton text={codes.join('\n')} label={t('settings.secondFactor.copyCodes')} />
        <button type="button" className="button button--primary" onClick={onDone}>
          {t('settings.secondFactor.saved')}
        </button>
      </div>
    </div>
  );
}
