import type { BrokenLink } from '@signpost/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { safeHref } from '../../../lib/safe-url';
import { failureReason, formatDay, statusPhrase } from '../../../lib/link-health/words';
import { useBrokenLinks } from '../api/broken-links';

function Row({ link }: { link: BrokenLink }) {
  const { t } = useTranslation('admin');
  const nameId = useId();
  const href = safeHref(link.url);
  const reason = t(`brokenLinks.reasons.${failureReason(link.status, link.failureKind)}`, {
    status: link.status === null ? '' : statusPhrase(link.status),
  });
  const since = t('brokenLinks.since', { date: formatDay(link.brokenSince) });
  const checked = link.checkedAt
    ? t('brokenLinks.checked', { date: formatDay(link.checkedAt) })
    : '';
  return (
    <li className="admin-broken" aria-labelledby={nameId}>
      <h4 id={nameId} className="admin-broken__name">
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
      </h4>
      <p className="admin-broken__url">{link.url}</p>
      <p className="hint">
        {t('brokenLinks.where', { space: link.spaceName, collection: link.collectionName })}
      </p>
      <p>
        {since}
        {checked ? `, ${checked}` : ''}. {reason}.
      </p>
    </li>
  );
}

/**
 * The console's broken links tab (decision 0069): the organization's broken team and
 * organization links for an administrator, those of their teams for a team editor, the
 * longest broken first, with where they are, since when, and the site's last answer.
 */
export function BrokenLinksTab() {
  const { t } = useTranslation('admin');
  const list = useBrokenLinks();
  const items = list.data?.items ?? [];
  return (
    <div className="admin-broken-links">
      <h3 className="admin-tab__title">{t('brokenLinks.title')}</h3>
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
            <Row key={link.linkId} link={link} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
