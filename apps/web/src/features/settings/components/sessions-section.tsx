import type { SignInSession } from '@signpost/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../api/settings-keys';
import { useEndOtherSessions, useEndSession, useSignInSessions } from '../api/sign-in-sessions';
import { formatDate } from './format-date';
import { SectionMessages, SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

/** "Where you're signed in": every live session, this device first; end one or all others. */
export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSignInSessions();
  const endOthers = useEndOtherSessions();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const items = sessions.data?.items ?? [];
  const ordered = [
    ...items.filter((item) => item.current),
    ...items.filter((item) => !item.current),
  ];
  const others = items.filter((item) => !item.current).length;

  function report(failure: unknown) {
    setNotice(null);
    setError(failureText(failure, t('settings.failed')));
  }

  async function endAllOthers() {
    setError(null);
    try {
      await endOthers.mutateAsync();
      setNotice(t('settings.sessions.endedOthers'));
    } catch (failure) {
      report(failure);
    }
  }

  return (
    <SettingsSection title={t('settings.sessions.title')}>
      {sessions.isPending ? <p className="hint">{t('portal.loading')}</p> : null}
      {sessions.isError ? (
        <p className="form-error">
          {t('settings.loadFailed')}{' '}
          <button type="button" className="link-button" onClick={() => void sessions.refetch()}>
            {t('settings.retry')}
          </button>
        </p>
      ) : null}
      {ordered.length > 0 ? (
        <ul className="settings-list" aria-label={t('settings.sessions.title')}>
          {ordered.map((item) => (
            <SessionRow
              key={item.id}
              item={item}
              onEnded={() => {
                setError(null);
                setNotice(t('settings.sessions.ended'));
              }}
              onError={report}
            />
          ))}
        </ul>
      ) : null}
      {sessions.data && others === 0 ? (
        <p className="hint">{t('settings.sessions.onlyThis')}</p>
      ) : null}
      {others > 0 ? (
        <button
          type="button"
          className="button"
          disabled={endOthers.isPending}
          aria-busy={endOthers.isPending}
          onClick={() => void endAllOthers()}
        >
          {t('settings.sessions.endOthers')}
        </button>
      ) : null}
      <SectionMessages error={error} notice={notice} />
    </SettingsSection>
  );
}

function SessionRow({
  item,
  onEnded,
  onError,
}: {
  item: SignInSession;
  onEnded: () => void;
  onError: (failure: unknown) => void;
}) {
  const { t } = useTranslation();
  const end = useEndSession();
  const name = t('settings.sessions.browserOn', { browser: item.browser, device: item.device });

  async function endThis() {
    try {
      await end.mutateAsync(item.id);
      onEnded();
    } catch (failure) {
      onError(failure);
    }
  }

  return (
    <li className="settings-item">
      <div className="settings-item__main">
        <span className="settings-item__name">{name}</span>
        {item.current ? <span className="badge">{t('settings.sessions.thisDevice')}</span> : null}
        <span className="settings-item__meta">
          {t('settings.sessions.lastActive', { date: formatDate(item.lastActiveAt, true) })}
          {' · '}
          {t('settings.sessions.signedIn', { date: formatDate(item.createdAt) })}{' '}
          {t(`settings.sessions.method.${item.method}`)}
        </span>
      </div>
      {item.current ? null : (
        <button
          type="button"
          className="button"
          disabled={end.isPending}
          aria-label={t('settings.sessions.endNamed', {
            name,
            date: formatDate(item.lastActiveAt, true),
          })}
          onClick={() => void endThis()}
        >
          {t('settings.sessions.end')}
        </button>
      )}
    </li>
  );
}
