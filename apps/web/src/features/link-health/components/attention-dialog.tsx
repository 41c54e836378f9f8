import type { AttentionLink } from '@signpost/contract';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { useMenu } from '../../../lib/menu/get-menu';
import { locateItem } from '../../../lib/menu/locate-item';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { updateLink } from '../../../lib/menu/menu-writes';
import { useMenuMutation } from '../../../lib/menu/use-menu-mutation';
import '../../../lib/panel-texts';
import { safeHref } from '../../../lib/safe-url';
import { useForgetAttention } from '../api/attention';
import { useLinkHealth } from '../../../lib/link-health/context';
import { failureReason, formatDay, statusPhrase } from '../../../lib/link-health/words';
import '../link-health.css';

/**
 * Where a link lives, from its space down to its collection ("Engineering › Tools"), as the
 * menu shows it; from the list's own names when the menu does not hold it (yet).
 */
function useWhere() {
  const { t } = useTranslation();
  const menu = useMenu().data;
  return (item: AttentionLink): string => {
    const found = menu ? locateItem(menu.spaces, 'link', item.linkId) : null;
    if (found) {
      const names = [found.space.name, ...found.ancestors.map((collection) => collection.name)];
      // A space's own collection is often named as the space ("My Space › My Space").
      return names.filter((name, index) => name !== names[index - 1]).join(' › ');
    }
    const space =
      item.space === 'team'
        ? (item.teamName ?? '')
        : item.space === 'organization'
          ? (organizationName(menu?.spaces) ?? t('attention.organization'))
          : t('attention.mySpace');
    return t('attention.where', { space, collection: item.collectionName });
  };
}

const organizationName = (spaces: readonly DisplaySpace[] | undefined) =>
  spaces?.find((space) => space.type === 'organization')?.name;

/** What is wrong, in plain words: "Broken since Nov 3: the site answers 404 Not Found." */
function Problem({ item }: { item: AttentionLink }) {
  const { t } = useTranslation();
  if (item.state === 'moved' && item.movedTo) {
    return <p className="attention-item__problem">{t('attention.moved', { url: item.movedTo })}</p>;
  }
  const reason = failureReason(item.status, item.failureKind);
  const words = t(`attention.reasons.${reason}`, {
    status: item.status === null ? '' : statusPhrase(item.status),
  });
  return (
    <p className="attention-item__problem">
      {t('attention.broken', { date: formatDay(item.since), reason: words })}
    </p>
  );
}

function Item({
  item,
  where,
  level,
  actions,
}: {
  item: AttentionLink;
  where: string;
  level: 'h3' | 'h4';
  actions?: React.ReactNode;
}) {
  const headingId = useId();
  const Heading = level;
  return (
    <li className="attention-item" aria-labelledby={headingId}>
      <Heading id={headingId} className="attention-item__name">
        {item.name}
      </Heading>
      <p className="attention-item__where">{where}</p>
      <Problem item={item} />
      {actions}
    </li>
  );
}

/**
 * The links that need the person (decision 0069): those they can fix first, with "Update the
 * address" for a moved one and "Open" for each; then, in a part of its own, the links of
 * collections shared with them, which they only see. Opened from the header's button; loaded
 * on first use (app/lazy-panels.ts).
 */
export function AttentionDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { fixable, shared } = useLinkHealth();
  const where = useWhere();
  const forget = useForgetAttention();
  const [notice, setNotice] = useState('');
  const [failed, setFailed] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const sharedId = useId();
  const fixId = useId();
  const update = useMenuMutation(async (item: AttentionLink) => {
    await updateLink(item.linkId, { url: item.movedTo! });
    // The server leaves a changed address out of the list at once: so does the dialog.
    forget(item.linkId);
  });

  const onUpdate = async (item: AttentionLink) => {
    setFailed(null);
    setNotice('');
    if (await update.write(item)) {
      setNotice(t('attention.updated', { name: item.name }));
      // The button went with its item: the focus goes to what happened.
      noticeRef.current?.focus();
    } else {
      setFailed(item.linkId);
    }
  };

  const actions = (item: AttentionLink) => {
    const href = safeHref(item.url);
    const updating = update.isPending && update.variables?.linkId === item.linkId;
    return (
      <div className="attention-item__actions">
        {item.state === 'moved' && item.movedTo ? (
          <button
            type="button"
            className="button button--primary"
            aria-label={t('attention.updateLabel', { name: item.name })}
            disabled={update.isPending}
            onClick={() => void onUpdate(item)}
          >
            {updating ? t('attention.updating') : t('attention.update')}
          </button>
        ) : null}
        {href ? (
          <a
            className="button"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('attention.openLabel', { name: item.name })}
          >
            {t('attention.open')}
          </a>
        ) : null}
        {failed === item.linkId ? (
          <p role="alert" className="form-error">
            {t('attention.failed')}
          </p>
        ) : null}
      </div>
    );
  };

  const nothing = fixable.length === 0 && shared.length === 0;
  return (
    <Dialog open onClose={onClose} title={t('attention.title')} className="attention-dialog">
      <p role="status" className="hint attention-dialog__notice" ref={noticeRef} tabIndex={-1}>
        {notice}
      </p>
      {nothing ? (
        <p className="attention-dialog__empty">{t('attention.none')}</p>
      ) : (
        <p className="hint">{t('attention.intro')}</p>
      )}
      {fixable.length > 0 ? (
        <section aria-labelledby={fixId}>
          <h3 id={fixId} className="attention-dialog__heading">
            {t('attention.toFix')}
          </h3>
          <ul className="attention-list">
            {fixable.map((item) => (
              <Item
                key={item.linkId}
                item={item}
                where={where(item)}
                level="h4"
                actions={actions(item)}
              />
            ))}
          </ul>
        </section>
      ) : null}
      {shared.length > 0 ? (
        <section aria-labelledby={sharedId}>
          <h3 id={sharedId} className="attention-dialog__heading">
            {t('attention.shared')}
          </h3>
          <p className="hint">{t('attention.sharedHint')}</p>
          <ul className="attention-list">
            {shared.map((item) => (
              <Item key={item.linkId} item={item} where={where(item)} level="h4" />
            ))}
          </ul>
        </section>
      ) : null}
    </Dialog>
  );
}
