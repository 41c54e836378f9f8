import type { BrokenLink } from '@signpost/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldMessage, invalidFieldProps } from '../../../components/field-message';
import { safeHref } from '../../../lib/safe-url';
import { subscribeUndone } from '../../../lib/undo/pending-undo';
import { serverMessage } from '../../../lib/server-message';
import { failureReason, formatDay, statusPhrase } from '../../../lib/link-health/words';
import { useBrokenLinks, useMendBrokenLink } from '../api/broken-links';
import '../../../lib/panel-texts';
import { openConsoleView, openInPortal } from '../console-address';

/** What was done to a row, said in it. */
type Outcome = { text: string; failed: boolean } | null;

/** The row's last write that the notice offers to undo, and what undoing it brings back. */
type Undoable = { id: string; kind: 'deleted' } | { id: string; kind: 'edited'; url: string };

function Row({ link, admin }: { link: BrokenLink; admin: boolean }) {
  const { t } = useTranslation('admin');
  const { t: tp } = useTranslation();
  const mend = useMendBrokenLink();
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(link.url);
  const [shownUrl, setShownUrl] = useState(link.url);
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [gone, setGone] = useState(false);
  const urlId = useId();
  const undoable = useRef<Undoable | null>(null);
  // Undone from the notice: the row says what the link is again, with its actions.
  useEffect(
    () =>
      subscribeUndone((id) => {
        const done = undoable.current;
        if (done?.id !== id) return;
        undoable.current = null;
        setGone(false);
        setEditing(false);
        if (done.kind === 'deleted') {
          setOutcome({ text: t('brokenLinks.restored'), failed: false });
        } else {
          setShownUrl(done.url);
          setOutcome({ text: t('brokenLinks.putBack'), failed: false });
        }
      }),
    [t],
  );
  const busy = mend.update.isPending || mend.remove.isPending || mend.dismiss.isPending;
  const failed = (error: unknown) =>
    setOutcome({ text: serverMessage(error)?.text ?? t('teams.failed'), failed: true });

  const openWhere = () => {
    // A team's link in its space in the console for an administrator; the portal otherwise
    // (the organization's space, or an editor's own team), where the link shows.
    if (admin && link.space === 'team' && link.teamId) {
      openConsoleView({ section: 'teams', id: link.teamId, space: true }, link.collectionId);
    } else {
      openInPortal(link.collectionId);
    }
  };

  const saveUrl = (event: FormEvent) => {
    event.preventDefault();
    setUrlProblem(null);
    const before = shownUrl;
    mend.update.mutate(
      { linkId: link.linkId, name: link.name, body: { url } },
      {
        onSuccess: (undoId) => {
          undoable.current = undoId ? { id: undoId, kind: 'edited', url: before } : null;
          setEditing(false);
          setShownUrl(url.trim());
          setOutcome({ text: t('brokenLinks.saved'), failed: false });
        },
        onError: (error) => {
          const problem = serverMessage(error, { url: tp('add.linkAddress') });
          if (problem?.field === 'url') setUrlProblem(problem.text);
          else failed(error);
        },
      },
    );
  };
  const nameId = useId();
  const href = safeHref(shownUrl);
  const reason = t(`brokenLinks.reasons.${failureReason(link.status, link.failureKind)}`, {
    status: link.status === null ? '' : statusPhrase(link.status),
  });
  const since = t('brokenLinks.since', { date: formatDay(link.brokenSince) });
  const checked = link.checkedAt
    ? t('brokenLinks.checked', { date: formatDay(link.checkedAt) })
    : '';
  return (
    <li className="admin-broken" aria-labelledby={nameId}>
      <h3 id={nameId} className="admin-broken__name">
        {href ? (
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('brokenLinks.open', { name: link.name })}
          >
            {link.name}
          </a>
        ) : (
          link.name
        )}
      </h3>
      <p className="admin-broken__url">{shownUrl}</p>
      <p className="hint">
        {t('brokenLinks.where', { space: link.spaceName, collection: link.collectionName })}
      </p>
      <p>
        {since}
        {checked ? `, ${checked}` : ''}. {reason}.
      </p>
      {editing ? (
        <form className="admin-broken__edit" onSubmit={saveUrl}>
          <label className="field" htmlFor={urlId}>
            <span>{tp('add.linkAddress')}</span>
          </label>
          <input
            id={urlId}
            type="text"
            inputMode="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            {...invalidFieldProps(urlId, urlProblem)}
          />
          <FieldMessage fieldId={urlId} message={urlProblem} />
          <div className="admin-row">
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('brokenLinks.save')}
            </button>
            <button type="button" className="button" onClick={() => setEditing(false)}>
              {t('teams.cancel')}
            </button>
          </div>
        </form>
      ) : gone ? null : (
        <div className="admin-row admin-broken__actions">
          <button type="button" className="button" onClick={openWhere}>
            {t('brokenLinks.openWhere', { space: link.spaceName })}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              setOutcome(null);
              setUrl(shownUrl);
              setEditing(true);
            }}
          >
            {t('brokenLinks.edit')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              setOutcome(null);
              mend.dismiss.mutate(link.linkId, {
                onSuccess: () => {
                  setGone(true);
                  setOutcome({ text: t('brokenLinks.dismissed'), failed: false });
                },
                onError: failed,
              });
            }}
          >
            {t('brokenLinks.dismiss')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => {
              setOutcome(null);
              mend.remove.mutate(
                { linkId: link.linkId, name: link.name },
                {
                  onSuccess: (undoId) => {
                    undoable.current = undoId ? { id: undoId, kind: 'deleted' } : null;
                    setGone(true);
                    setOutcome({ text: t('brokenLinks.deleted'), failed: false });
                  },
                  onError: failed,
                },
              );
            }}
          >
            {t('brokenLinks.delete')}
          </button>
        </div>
      )}
      <p role="status" className={outcome?.failed ? 'form-error' : 'hint'}>
        {outcome?.text}
      </p>
    </li>
  );
}

/**
 * The console's broken links tab (decision 0069): the organization's broken team and
 * organization links for an administrator, those of their teams for a team editor, the
 * longest broken first, with where they are, since when, and the site's last answer.
 */
export function BrokenLinksTab({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation('admin');
  const list = useBrokenLinks();
  const items = list.data?.items ?? [];
  return (
    <div className="admin-broken-links">
      <h2 className="admin-tab__title">{t('brokenLinks.title')}</h2>
      <p className="hint">{t('brokenLinks.intro')}</p>
      {list.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {list.isError ? (
        <div>
          <p className="form-error">{t('console.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void list.refetch()}>
            {t('console.retry')}
          </button>
        </div>
      ) : null}
      {list.isSuccess && items.length === 0 ? <p>{t('brokenLinks.none')}</p> : null}
      {items.length > 0 ? (
        <ul className="admin-list" aria-label={t('brokenLinks.title')}>
          {items.map((link) => (
            <Row key={link.linkId} link={link} admin={admin} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
