import type { AdminSuggestion } from '@signpost/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { safeHref } from '../../../lib/safe-url';
import { useDecideSuggestion } from '../api/suggestions';
import { failureOf } from './failure-of';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** One suggestion: what, where, by whom; accept as is, edit and accept, or decline. */
export function SuggestionsItem({
  item,
  onDone,
}: {
  item: AdminSuggestion;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation('admin');
  const decide = useDecideSuggestion();
  const [mode, setMode] = useState<'view' | 'edit' | 'decline'>('view');
  const [fields, setFields] = useState({
    name: item.name,
    url: item.url,
    description: item.description,
  });
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const href = safeHref(item.url);

  async function run(work: () => Promise<unknown>, done: string) {
    setError(null);
    try {
      await work();
      onDone(done);
    } catch (failure) {
      setError(failureOf(failure, t('suggestions.failed')));
    }
  }

  const accept = (edited: boolean) =>
    run(
      () => decide.accept.mutateAsync({ id: item.id, body: edited ? fields : {} }),
      t('suggestions.accepted', { name: edited ? fields.name : item.name }),
    );

  function onEdit(event: FormEvent) {
    event.preventDefault();
    void accept(true);
  }

  function onDecline(event: FormEvent) {
    event.preventDefault();
    void run(
      () => decide.decline.mutateAsync({ id: item.id, reason: reason.trim() }),
      t('suggestions.declined', { name: item.name }),
    );
  }

  return (
    <li className="admin-suggestion" aria-label={item.name}>
      <p>
        <strong>{item.name}</strong>{' '}
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {item.url}
          </a>
        ) : (
          <span>{item.url}</span>
        )}
      </p>
      {item.description ? <p>{item.description}</p> : null}
      <p className="hint">
        {t('suggestions.where', { collection: item.collection.name, space: item.space.name })}
        {' · '}
        {item.suggestedBy
          ? t('suggestions.by', { name: item.suggestedBy.name, date: day(item.createdAt) })
          : t('suggestions.byUnknown', { date: day(item.createdAt) })}
      </p>
      {item.status !== 'open' && item.decidedAt ? (
        <p className="hint">
          {t('suggestions.decidedBy', {
            status: t(`suggestions.statuses.${item.status}`),
            name: item.decidedBy?.name ?? '—',
            date: day(item.decidedAt),
          })}
          {item.reason ? ` · ${t('suggestions.reasonShown', { reason: item.reason })}` : ''}
        </p>
      ) : null}
      <p role="alert" className="form-error">
        {error}
      </p>
      {item.status === 'open' && mode === 'view' ? (
        <div className="admin-row">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void accept(false)}
          >
            {t('suggestions.accept')}
          </button>
          <button type="button" className="button" onClick={() => setMode('edit')}>
            {t('suggestions.edit')}
          </button>
          <button type="button" className="button" onClick={() => setMode('decline')}>
            {t('suggestions.decline')}
          </button>
        </div>
      ) : null}
      {item.status === 'open' && mode === 'edit' ? (
        <form onSubmit={onEdit} className="admin-form">
          {(['name', 'url', 'description'] as const).map((key) => (
            <label key={key} className="admin-field">
              <span>{t(`suggestions.${key}`)}</span>
              <input
                value={fields[key]}
                required={key !== 'description'}
                onChange={(e) => setFields((f) => ({ ...f, [key]: e.target.value }))}
              />
            </label>
          ))}
          <button type="submit" className="button button--primary">
            {t('suggestions.acceptEdited')}
          </button>{' '}
          <button type="button" className="button" onClick={() => setMode('view')}>
            {t('suggestions.cancel')}
          </button>
        </form>
      ) : null}
      {item.status === 'open' && mode === 'decline' ? (
        <form onSubmit={onDecline} className="admin-form">
          <label className="admin-field">
            <span>{t('suggestions.reason')}</span>
            <textarea value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="button">
            {t('suggestions.declineConfirm')}
          </button>{' '}
          <button type="button" className="button" onClick={() => setMode('view')}>
            {t('suggestions.cancel')}
          </button>
        </form>
      ) : null}
    </li>
  );
}
