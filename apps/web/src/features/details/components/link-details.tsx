import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { LinkTile } from '../../../components/menu-item-tile';
import type { LinkLike, SearchEntry } from '../../../lib/menu/menu-types';
import { unicodeHost } from '../../../lib/display-text';
import { safeHref } from '../../../lib/safe-url';
import { serverMessage } from '../../../lib/server-message';
import { useLinkAction, type LinkAction } from '../api/link-action';
import { LinkEditForm } from './link-edit-form';
import { LinkIconSection } from './link-icon-section';
import '../../../lib/panel-texts';

/**
 * The action of a link's details (spec §6), from what the server says the person may do
 * (`can`, decision 0008): a team or organization link is added to My Space as a favorite
 * (or, when it already is one, removed); else a favorite or a link is deleted where the
 * person may; otherwise there is none.
 */
export function linkAction(entry: SearchEntry, favoriteId: string | null): LinkAction | null {
  const { item } = entry;
  if (item.can.favorite) return favoriteId ? 'remove-from-my-space' : 'add-to-my-space';
  if (!item.can.delete) return null;
  return item.type === 'link-favorite' ? 'delete-favorite' : 'delete-link';
}

const LABELS: Record<LinkAction, ParseKeys> = {
  'add-to-my-space': 'details.addToMySpace',
  'remove-from-my-space': 'details.removeFromMySpace',
  'delete-link': 'details.deleteLink',
  'delete-favorite': 'details.deleteFavorite',
};

export interface LinkDetailsProps {
  entry: SearchEntry;
  /** Other links of the same app. */
  appLinks: LinkLike[];
  /** The favorite that points at this team or organization link, if any. */
  favoriteId: string | null;
  mySpaceId: string | null;
  onOpenLink?: (link: LinkLike) => void;
  /** Opens with the link's fields to edit (the item menu's Edit), where the person may. */
  startEditing?: boolean;
  onClose: () => void;
}

/**
 * Name, description, address, app, location, the icon (for whoever may change the link: a
 * favorite is a pointer, never changed) and the action button.
 */
export function LinkDetails({
  entry,
  appLinks,
  favoriteId,
  mySpaceId,
  onOpenLink,
  startEditing = false,
  onClose,
}: LinkDetailsProps) {
  const { t } = useTranslation();
  const mutation = useLinkAction();
  const { item } = entry;
  // A favorite is a pointer: the link it points at is edited where it lives.
  const editable = item.type === 'link' && item.can.edit ? item : null;
  const [editing, setEditing] = useState(startEditing && editable !== null);
  const action = linkAction(entry, favoriteId);
  const href = safeHref(item.url);
  // The server stores the punycode host; a look-alike Unicode host is shown beside it.
  const host = unicodeHost(item.url);

  const run = async () => {
    if (!action) return;
    const variables = { action, itemId: item.id, favoriteId, mySpaceId, name: item.name };
    if (await mutation.write(variables)) onClose();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="details-panel"
      title={t('details.linkTitle')}
    >
      {editing && editable ? (
        <LinkEditForm link={editable} onDone={() => setEditing(false)} />
      ) : (
        <dl className="details">
          <dt>{t('details.name')}</dt>
          <dd>
            <bdi>{item.name}</bdi>
          </dd>
          <dt>{t('details.description')}</dt>
          <dd>{item.description || '—'}</dd>
          <dt>{t('details.url')}</dt>
          <dd className="details__url">
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">
                {item.url}
              </a>
            ) : (
              item.url
            )}
            {host ? (
              <span className="details__host">
                {t('details.unicodeHost', {
                  ascii: host.ascii,
                  unicode: host.unicode,
                  interpolation: { escapeValue: false },
                })}
              </span>
            ) : null}
          </dd>
          <dt>{t('details.app')}</dt>
          <dd>{item.appName ?? '—'}</dd>
          <dt>{t('details.location')}</dt>
          <dd>{entry.locationTree.join(' > ')}</dd>
        </dl>
      )}
      {item.type === 'link' && item.can.edit ? <LinkIconSection link={item} /> : null}
      {item.appName && appLinks.length > 0 ? (
        <section className="panel-section" aria-label={t('details.linksInThisApp')}>
          <h3>{t('details.linksInThisApp')}</h3>
          <ul className="tile-grid">
            {appLinks.map((link) => (
              <li key={`${link.type}:${link.id}`}>
                <LinkTile link={link} onOpen={onOpenLink} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!editing && (action || editable) ? (
        <div className="details__actions">
          {editable ? (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t('details.edit')}
            </button>
          ) : null}
          {action ? (
            <button
              type="button"
              className={`button${action.startsWith('delete') ? ' button--danger' : ' button--primary'}`}
              disabled={mutation.isPending}
              onClick={() => void run()}
            >
              {t(LABELS[action])}
            </button>
          ) : null}
        </div>
      ) : null}
      {mutation.isError ? (
        <p className="form-error" role="alert">
          {serverMessage(mutation.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
    </Dialog>
  );
}
