import { useMemo, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_LINK_DRAFT,
  LinkFields,
  linkFieldLabels,
  type LinkDraft,
} from '../../../components/link-fields';
import { Dialog } from '../../../components/dialog';
import type { Container } from '../../../lib/menu/locate-item';
import { membersOf, shareIdOf, shareTeamsOf } from '../../../lib/menu/selectors';
import { useRemoveShareTeam } from '../api/share-teams';
import { serverMessage } from '../../../lib/server-message';
import { useLeaveOrDelete, useSuggestLink } from '../api/collection-actions';
import { CollectionEditForm } from './collection-edit-form';
import '../../../lib/panel-texts';

export type CollectionAction = 'leave' | 'delete' | 'suggest' | null;

/**
 * The one action a collection's details offer (spec §2, §6), read from what the server
 * says the person may do (`can`, decision 0008): leave a share someone else owns, delete
 * what they may delete, else suggest a link to the people who run the space. My Space and
 * the shared-root offer none.
 */
export function collectionAction(collection: Container): CollectionAction {
  const { can } = collection;
  if (can.leave) return 'leave';
  if (can.delete) return 'delete';
  return can.suggest && !can.addLink ? 'suggest' : null;
}

export interface CollectionDetailsProps {
  collection: Container;
  profileId: string;
  /** Shown when the person may share the collection or add to its share. */
  onAddMembers?: () => void;
  /** The person's own root: its name stays "My Space". */
  isMySpace?: boolean;
  /** Opens with the collection's fields to edit (the item menu's Edit), where the person may. */
  startEditing?: boolean;
  onClose: () => void;
}

/** Name, description, color, members, add members and one action. */
export function CollectionDetails({
  collection,
  profileId,
  onAddMembers,
  isMySpace = false,
  startEditing = false,
  onClose,
}: CollectionDetailsProps) {
  const { t } = useTranslation();
  const editable = collection.can.edit;
  const [editing, setEditing] = useState(startEditing && editable);
  const removal = useLeaveOrDelete();
  const suggest = useSuggestLink();
  const [suggesting, setSuggesting] = useState(false);
  const [suggested, setSuggested] = useState(false);
  const [suggestion, setSuggestion] = useState<LinkDraft>(EMPTY_LINK_DRAFT);
  const action = collectionAction(collection);
  const members = membersOf(collection);
  const teams = shareTeamsOf(collection);
  const shareId = shareIdOf(collection);
  const removeTeam = useRemoveShareTeam();

  const leaveOrDelete = async () => {
    suggest.reset();
    const variables = {
      leave: action === 'leave',
      collectionId: collection.id,
      shareId,
      profileId,
      name: collection.name,
    };
    if (await removal.write(variables)) onClose();
  };

  const sendSuggestion = (event: FormEvent) => {
    event.preventDefault();
    removal.reset();
    suggest.mutate(
      { collectionId: collection.id, link: suggestion },
      {
        onSuccess: () => {
          setSuggesting(false);
          setSuggested(true);
          setSuggestion(EMPTY_LINK_DRAFT);
        },
      },
    );
  };
  const busy = removal.isPending || suggest.isPending || removeTeam.isPending;
  // The server's message about a suggested link's field shows under that field (decision 0055).
  const suggestProblem = useMemo(
    () => serverMessage(suggest.error, linkFieldLabels(t)),
    [suggest.error, t],
  );
  const failure = removal.isError
    ? (serverMessage(removal.error)?.text ?? t('write.failed'))
    : removeTeam.isError
      ? (serverMessage(removeTeam.error)?.text ?? t('write.failed'))
      : suggest.isError && !suggestProblem?.field
        ? (suggestProblem?.text ?? t('write.failed'))
        : null;

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="details-panel"
      title={t('details.collectionTitle')}
    >
      {editing ? (
        <CollectionEditForm
          collection={collection}
          fixedName={isMySpace}
          onDone={() => setEditing(false)}
        />
      ) : (
        <dl className="details">
          <dt>{t('details.name')}</dt>
          <dd>
            <bdi>{collection.name}</bdi>
          </dd>
          <dt>{t('details.description')}</dt>
          <dd>{collection.description || '—'}</dd>
          <dt>{t('details.color')}</dt>
          <dd>
            {collection.color ? (
              <span className="color-value">
                <span
                  className="color-swatch"
                  aria-hidden="true"
                  style={{ '--swatch': collection.color } as CSSProperties}
                />
                {collection.color}
              </span>
            ) : (
              t('details.noColor')
            )}
          </dd>
          {/* Sharing is for personal collections: the members of a share, or a note for one its
            owner could share; a team or organization collection says nothing of it. */}
          {members.length > 0 || collection.can.share ? (
            <>
              <dt>{t('details.members')}</dt>
              <dd>
                {members.length === 0 ? (
                  t('details.notShared')
                ) : (
                  <ul className="member-list">
                    {members.map((member) => (
                      <li key={member.id}>
                        {member.name} <span className="hint">{member.email}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </>
          ) : null}
          {teams.length > 0 ? (
            <>
              <dt>{t('details.teams')}</dt>
              <dd>
                <p className="hint">{t('details.teamsHint')}</p>
                <ul className="member-list">
                  {teams.map((team) => (
                    <li key={team.id}>
                      <span>{team.name}</span>
                      {collection.can.share && shareId ? (
                        <>
                          {' '}
                          <button
                            type="button"
                            className="button button--small"
                            disabled={busy}
                            onClick={() => {
                              removal.reset();
                              void removeTeam.write({ shareId, teamId: team.id });
                            }}
                          >
                            {t('details.stopSharingWithTeam', { name: team.name })}
                          </button>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
      )}
      {editing ? null : (
        <div className="details__actions">
          {editable ? (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t('details.edit')}
            </button>
          ) : null}
          {onAddMembers ? (
            <button type="button" className="button" onClick={onAddMembers}>
              {t('details.addMembers')}
            </button>
          ) : null}
          {action === 'leave' || action === 'delete' ? (
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onClick={() => void leaveOrDelete()}
            >
              {t(action === 'leave' ? 'details.leave' : 'details.delete')}
            </button>
          ) : null}
          {action === 'suggest' && !suggesting ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setSuggested(false);
                setSuggesting(true);
              }}
            >
              {t('details.suggest')}
            </button>
          ) : null}
        </div>
      )}
      {suggesting ? (
        <form className="add-form" onSubmit={sendSuggestion}>
          <LinkFields value={suggestion} onChange={setSuggestion} problem={suggestProblem} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('details.suggestSubmit')}
          </button>
        </form>
      ) : null}
      {suggested ? <p role="status">{t('details.suggestSent')}</p> : null}
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}
