import type { CreatedScimTokenResponse, ScimToken } from '@signpost/contract';
import { SCIM_BASE_PATH, SCIM_TOKEN_LIMITS } from '@signpost/contract';
import i18next from 'i18next';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { Dialog } from '../../../components/dialog';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import { serverMessage, type ServerMessage } from '../../../lib/server-message';
import { useCreateScimToken, useRevokeScimToken, useScimTokens } from '../api/scim-tokens';
import '../../../lib/panel-texts';

type TokenField = 'name';

/** A date and time in the person's language. */
const when = (iso: string) => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(i18next.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
};

/**
 * The organization tab's provisioning section (SCIM 2.0, decision 0084): the base URL to
 * paste into the identity system, its tokens (made here, shown once; revoked with a
 * confirmation), and how to connect Okta or Microsoft Entra ID.
 */
export function ScimSection() {
  const { t } = useTranslation('admin');
  const tokens = useScimTokens();
  const create = useCreateScimToken();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedScimTokenResponse | null>(null);
  const [error, setError] = useState<ServerMessage<TokenField> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const fieldId = (field: TokenField) => `${baseId}-${field}`;
  useFocusField(error, fieldId);
  const baseUrl = `${window.location.origin}${SCIM_BASE_PATH}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const wanted = name.trim();
    if (!wanted) {
      setError({ field: 'name', text: t('settings.scim.nameRequired') });
      return;
    }
    try {
      // Re-authentication, when the server asks for it, happens inside the call.
      setCreated(await create.mutateAsync({ name: wanted }));
      setName('');
    } catch (failure) {
      setError(
        serverMessage<TokenField>(failure, { name: t('settings.scim.name') }) ?? {
          field: null,
          text: t('settings.scim.failed'),
        },
      );
    }
  }

  const items = tokens.data?.items ?? [];
  return (
    <section className="admin-settings admin-scim" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>{t('settings.scim.title')}</h3>
      <p className="hint">{t('settings.scim.intro')}</p>
      <label className="field__label" htmlFor={`${baseId}-base`}>
        {t('settings.scim.baseUrl')}
      </label>
      <div className="created-secret__value">
        <input
          id={`${baseId}-base`}
          type="text"
          readOnly
          spellCheck={false}
          className="secret-text"
          value={baseUrl}
          aria-describedby={`${baseId}-guide`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={baseUrl} accessibleName={t('settings.scim.copyBaseUrl')} />
      </div>
      <p id={`${baseId}-guide`} className="hint">
        {t('settings.scim.guide')}
      </p>

      <h4>{t('settings.scim.list')}</h4>
      {tokens.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {tokens.isError ? (
        <p className="form-error">
          {t('console.loadFailed')}{' '}
          <button type="button" className="link-button" onClick={() => void tokens.refetch()}>
            {t('console.retry')}
          </button>
        </p>
      ) : null}
      {tokens.isSuccess && items.length === 0 ? (
        <p className="hint">{t('settings.scim.empty')}</p>
      ) : null}
      {items.length > 0 ? (
        <ul className="settings-list" aria-label={t('settings.scim.list')}>
          {items.map((item) => (
            <li key={item.id} className="settings-item" aria-label={item.name}>
              <div className="settings-item__main">
                <span>
                  <span className="settings-item__name">{item.name}</span>{' '}
                  <code className="settings-item__hint">{item.hint}…</code>
                </span>
                <span className="settings-item__meta">
                  {t('settings.scim.made', { name: item.createdBy })}
                  {' · '}
                  <time dateTime={item.createdAt}>{when(item.createdAt)}</time>
                  {' · '}
                  {item.lastUsedAt
                    ? t('settings.scim.lastUsed', { date: when(item.lastUsedAt) })
                    : t('settings.scim.neverUsed')}
                </span>
              </div>
              <button
                type="button"
                className="button"
                aria-label={t('settings.scim.revokeNamed', { name: item.name })}
                onClick={() => {
                  setError(null);
                  setNotice(null);
                  setRevoking(item);
                }}
              >
                {t('settings.scim.revoke')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <h4>{t('settings.scim.newToken')}</h4>
      {created ? (
        <CreatedToken
          created={created}
          onDone={() => {
            setCreated(null);
            requestAnimationFrame(() => nameRef.current?.focus());
          }}
        />
      ) : (
        <form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
          <div className="admin-field">
            <label htmlFor={fieldId('name')}>{t('settings.scim.name')}</label>
            <input
              ref={nameRef}
              id={fieldId('name')}
              type="text"
              autoComplete="off"
              required
              aria-required="true"
              maxLength={SCIM_TOKEN_LIMITS.name}
              placeholder={t('settings.scim.namePlaceholder')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              {...invalidFieldProps(fieldId('name'), messageFor(error, 'name'))}
            />
            <FieldMessage fieldId={fieldId('name')} message={messageFor(error, 'name')} />
          </div>
          <button
            type="submit"
            className="button button--primary"
            disabled={create.isPending}
            aria-busy={create.isPending}
          >
            {create.isPending ? t('settings.scim.creating') : t('settings.scim.create')}
          </button>
        </form>
      )}
      {error && !error.field ? (
        <p role="alert" className="form-error">
          {error.text}
        </p>
      ) : null}
      <p role="status" className="hint">
        {notice}
      </p>
      {revoking ? (
        <RevokeDialog
          item={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            setNotice(t('settings.scim.revoked', { name: revoking.name }));
          }}
        />
      ) : null}
    </section>
  );
}

/** The new token, this once, with a copy button and the warning that it is not shown again. */
function CreatedToken({
  created,
  onDone,
}: {
  created: CreatedScimTokenResponse;
  onDone: () => void;
}) {
  const { t } = useTranslation('admin');
  const titleId = useId();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The token is what the person came for: focus (and select) it, so it is read out.
  useEffect(() => inputRef.current?.focus(), []);
  return (
    <div className="created-secret" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="created-secret__title">
        {t('settings.scim.createdTitle', { name: created.scimToken.name })}
      </p>
      <p className="created-secret__warning">
        <strong>{t('settings.scim.createdWarning')}</strong>
      </p>
      <label className="field__label" htmlFor={inputId}>
        {t('settings.scim.createdLabel')}
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
        <CopyButton text={created.token} accessibleName={t('settings.scim.copyToken')} />
      </div>
      <button type="button" className="button button--primary" onClick={onDone}>
        {t('settings.scim.done')}
      </button>
    </div>
  );
}

/** Asks before a token is revoked: the identity system that holds it is shut out at once. */
function RevokeDialog({
  item,
  onClose,
  onRevoked,
}: {
  item: ScimToken;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useTranslation('admin');
  const revoke = useRevokeScimToken();
  const [problem, setProblem] = useState<string | null>(null);

  async function confirm() {
    setProblem(null);
    try {
      await revoke.mutateAsync(item.id);
      onRevoked();
    } catch (failure) {
      setProblem(serverMessage(failure)?.text ?? t('settings.scim.failed'));
    }
  }

  return (
    <Dialog open onClose={onClose} title={t('settings.scim.revokeTitle', { name: item.name })}>
      <p>{t('settings.scim.revokeConfirm')}</p>
      <div role="alert" className="people-form__error">
        {problem}
      </div>
      <div className="people-form__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('settings.scim.cancel')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={revoke.isPending}
          onClick={() => void confirm()}
        >
          {t('settings.scim.revokeYes')}
        </button>
      </div>
    </Dialog>
  );
}
