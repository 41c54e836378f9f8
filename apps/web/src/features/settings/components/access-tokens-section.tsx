import type { AccessToken, CreatedAccessTokenResponse } from '@signpost/contract';
import { ACCESS_TOKEN_LIMITS } from '@signpost/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../../lib/config';
import { ACCESS_TOKEN_EXPIRY_CHOICES_DAYS } from '../../../lib/constants';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import { serverMessage, type ServerMessage } from '../../../lib/server-message';
import { useAccessTokens, useCreateAccessToken, useRevokeAccessToken } from '../api/access-tokens';
import { failureText } from '../api/settings-keys';
import { CopyButton } from '../../../components/copy-button';
import { formatDate } from './format-date';
import { SectionMessages, SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

/** The fields of a new token, by the name the server gives them (`body.name`). */
type TokenField = 'name' | 'expiresInDays';

/** Access tokens: create one (shown once), see the list, revoke with a confirmation. */
export function AccessTokensSection() {
  const { t } = useTranslation();
  const tokens = useAccessTokens();
  const create = useCreateAccessToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [created, setCreated] = useState<CreatedAccessTokenResponse | null>(null);
  // A refused field's message shows under it; any other under the section (decision 0055).
  const [error, setError] = useState<ServerMessage<TokenField> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const formId = useId();
  const fieldId = (field: TokenField) => `${formId}-${field}`;
  useFocusField(error, fieldId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const answer = await create.mutateAsync({
        name: name.trim(),
        ...(expiry ? { expiresInDays: Number(expiry) } : {}),
      });
      setCreated(answer);
      setName('');
      setExpiry('');
    } catch (failure) {
      setError(
        serverMessage<TokenField>(failure, {
          name: t('settings.tokens.name'),
          expiresInDays: t('settings.tokens.expiry'),
        }) ?? { field: null, text: t('settings.failed') },
      );
    }
  }

  return (
    <SettingsSection title={t('settings.tokens.title')}>
      <p className="hint">{t('settings.tokens.intro', { brand: config.brand })}</p>
      {created ? (
        <CreatedToken
          created={created}
          onDone={() => {
            setCreated(null);
            requestAnimationFrame(() => nameRef.current?.focus());
          }}
        />
      ) : (
        <form className="settings-form" onSubmit={submit} noValidate>
          <label className="field">
            <span className="field__label">{t('settings.tokens.name')}</span>
            <input
              ref={nameRef}
              id={fieldId('name')}
              type="text"
              name="token-name"
              autoComplete="off"
              maxLength={ACCESS_TOKEN_LIMITS.name}
              value={name}
              onChange={(event) => setName(event.target.value)}
              {...invalidFieldProps(fieldId('name'), messageFor(error, 'name'))}
            />
          </label>
          <FieldMessage fieldId={fieldId('name')} message={messageFor(error, 'name')} />
          <label className="field">
            <span className="field__label">{t('settings.tokens.expiry')}</span>
            <select
              id={fieldId('expiresInDays')}
              name="token-expiry"
              value={expiry}
              onChange={(event) => setExpiry(event.target.value)}
              {...invalidFieldProps(fieldId('expiresInDays'), messageFor(error, 'expiresInDays'))}
            >
              <option value="">{t('settings.tokens.expiryNever')}</option>
              {ACCESS_TOKEN_EXPIRY_CHOICES_DAYS.map((days) => (
                <option key={days} value={String(days)}>
                  {t('settings.tokens.expiryDays', { count: days })}
                </option>
              ))}
            </select>
          </label>
          <FieldMessage
            fieldId={fieldId('expiresInDays')}
            message={messageFor(error, 'expiresInDays')}
          />
          <button
            type="submit"
            className="button button--primary"
            disabled={create.isPending}
            aria-busy={create.isPending}
          >
            {create.isPending ? t('settings.tokens.creating') : t('settings.tokens.create')}
          </button>
        </form>
      )}
      <SectionMessages error={error && !error.field ? error.text : null} notice={notice} />
      <h4>{t('settings.tokens.list')}</h4>
      {tokens.isPending ? <p className="hint">{t('portal.loading')}</p> : null}
      {tokens.isError ? (
        <p className="form-error">
          {t('settings.loadFailed')}{' '}
          <button type="button" className="link-button" onClick={() => void tokens.refetch()}>
            {t('settings.retry')}
          </button>
        </p>
      ) : null}
      {tokens.data && tokens.data.items.length === 0 ? (
        <p className="hint">{t('settings.tokens.empty')}</p>
      ) : null}
      {tokens.data && tokens.data.items.length > 0 ? (
        <ul className="settings-list" aria-label={t('settings.tokens.list')}>
          {tokens.data.items.map((item) => (
            <TokenRow
              key={item.id}
              item={item}
              onRevoked={() => {
                setError(null);
                setNotice(t('settings.tokens.revoked', { name: item.name }));
              }}
              onError={(message) => {
                setNotice(null);
                setError({ field: null, text: message });
              }}
            />
          ))}
        </ul>
      ) : null}
    </SettingsSection>
  );
}

/** The new token, this once, with a copy button and the warning that it will not show again. */
function CreatedToken({
  created,
  onDone,
}: {
  created: CreatedAccessTokenResponse;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The token is what the person came for: focus (and select) it, so it is read out.
  useEffect(() => inputRef.current?.focus(), []);
  return (
    <div className="created-secret" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="created-secret__title">
        {t('settings.tokens.createdTitle', { name: created.accessToken.name })}
      </p>
      <p className="created-secret__warning">
        <strong>{t('settings.tokens.createdWarning')}</strong>
      </p>
      <label className="field__label" htmlFor={inputId}>
        {t('settings.tokens.createdLabel')}
      </label>
      <div className="created-secret__value">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          readOnly
          spellCheck={false}
          className="secret-text"
          value={created.token}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={created.token} />
      </div>
      <button type="button" className="button button--primary" onClick={onDone}>
        {t('settings.tokens.done')}
      </button>
    </div>
  );
}

function TokenRow({
  item,
  onRevoked,
  onError,
}: {
  item: AccessToken;
  onRevoked: () => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const revoke = useRevokeAccessToken();
  const [confirming, setConfirming] = useState(false);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Focus follows the question: to Cancel when asked, back to Revoke when cancelled.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
    else if (asked.current) revokeRef.current?.focus();
    asked.current = confirming;
  }, [confirming]);

  async function confirm() {
    try {
      await revoke.mutateAsync(item.id);
      onRevoked();
    } catch (failure) {
      setConfirming(false);
      onError(failureText(failure, t('settings.failed')));
    }
  }

  return (
    <li className="settings-item">
      <div className="settings-item__main">
        <span className="settings-item__name">{item.name}</span>{' '}
        <code className="settings-item__hint">{item.hint}…</code>
        <span className="settings-item__meta">
          {t('settings.tokens.created', { date: formatDate(item.createdAt) })}
          {' · '}
          {item.lastUsedAt
            ? t('settings.tokens.lastUsed', { date: formatDate(item.lastUsedAt, true) })
            : t('settings.tokens.neverUsed')}
          {' · '}
          {item.expiresAt
            ? t('settings.tokens.expires', { date: formatDate(item.expiresAt) })
            : t('settings.tokens.noExpiry')}
        </span>
      </div>
      {confirming ? (
        <div
          className="settings-item__confirm"
          role="group"
          aria-label={t('settings.tokens.revokeNamed', { name: item.name })}
        >
          <p>{t('settings.tokens.revokeConfirm', { name: item.name })}</p>
          <button
            type="button"
            className="button button--danger"
            disabled={revoke.isPending}
            onClick={() => void confirm()}
          >
            {t('settings.tokens.revokeYes')}
          </button>
          <button
            ref={cancelRef}
            type="button"
            className="button"
            onClick={() => setConfirming(false)}
          >
            {t('settings.tokens.cancel')}
          </button>
        </div>
      ) : (
        <button
          ref={revokeRef}
          type="button"
          className="button"
          aria-label={t('settings.tokens.revokeNamed', { name: item.name })}
          onClick={() => setConfirming(true)}
        >
          {t('settings.tokens.revoke')}
        </button>
      )}
    </li>
  );
}
