import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartIcon, FolderIcon, UserIcon, UsersIcon } from '../../../components/icons';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { useDismiss } from '../../../lib/use-dismiss';
import { BuddyContact } from './buddy-contact';

const TYPE_ICONS = { personal: UserIcon, team: UsersIcon, organization: ChartIcon } as const;

interface Props {
  space: DisplaySpace;
  /** Opens the suggestions waiting in the space (the console's Suggestions tab). */
  onOpenSuggestions?: () => void;
  /** Adds a top-level collection to the space; given to the people who run it only. */
  onAddCollection?: () => void;
  /** Opens the details of a collection, to suggest a link there. */
  onSuggest?: (collectionId: string) => void;
  /** Imports a bookmark file into a new collection of the space; for those who may. */
  onImportBookmarks?: () => void;
  /** Exports the space as a file. */
  onExportBookmarks?: () => void;
}

/**
 * The space name with its type icon; clicking toggles the info dialog titled with the name,
 * which names a team's buddy, its support contact (spec §1); Escape or a press elsewhere
 * closes it. For the people who run the space, a badge counts the suggested links waiting
 * in it (the server sends the count to them only), and Add collection adds a top-level
 * collection to it. The info offers members to suggest a link to the space's first
 * collection (its `can.suggest`, where they may not add): a top-level collection has no
 * tile of its own to open its details from. It also takes the space out as a file, and brings
 * a bookmark file in where the person may add a collection (decision 0087).
 */
export function SpaceToolbar({
  space,
  onOpenSuggestions,
  onAddCollection,
  onSuggest,
  onImportBookmarks,
  onExportBookmarks,
}: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const infoId = useId();
  const area = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useDismiss(open, () => setOpen(false), area, toggle);
  const Icon = TYPE_ICONS[space.type];
  const suggestTo = onSuggest
    ? space.collections.find((c) => c.type === 'collection' && c.can.suggest && !c.can.addLink)
    : undefined;
  return (
    <div className="space-toolbar" ref={area}>
      <h2 className="space-toolbar__heading">
        <button
          ref={toggle}
          type="button"
          className="space-toolbar__button"
          aria-expanded={open}
          aria-controls={infoId}
          onClick={() => setOpen((value) => !value)}
        >
          <Icon />
          <span className="visually-hidden">{t(`space.typeIcon.${space.type}`)}: </span>
          <span>{space.name}</span>
        </button>
      </h2>
      {space.openSuggestions || onAddCollection ? (
        <div className="space-toolbar__actions">
          {onAddCollection ? (
            <button type="button" className="button space-toolbar__add" onClick={onAddCollection}>
              <FolderIcon />
              {t('space.addCollection')}
            </button>
          ) : null}
          {space.openSuggestions ? (
            <button
              type="button"
              className="button space-toolbar__suggestions"
              onClick={onOpenSuggestions}
              disabled={!onOpenSuggestions}
              aria-label={t('space.openSuggestions', { count: space.openSuggestions })}
            >
              <span className="badge" aria-hidden="true">
                {space.openSuggestions}
              </span>
            </button>
          ) : null}
        </div>
      ) : null}
      {open ? (
        <div id={infoId} className="space-info" role="dialog" aria-label={space.name}>
          <h3 className="space-info__title">{space.name}</h3>
          <p>{t(`space.info.${space.type}`, { name: space.name })}</p>
          {space.buddy ? <BuddyContact buddy={space.buddy} className="space-info__buddy" /> : null}
          {suggestTo && onSuggest ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setOpen(false);
                onSuggest(suggestTo.id);
              }}
            >
              {t('details.suggest')}
            </button>
          ) : null}
          {onImportBookmarks || onExportBookmarks ? (
            <div className="space-info__actions">
              {onImportBookmarks ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setOpen(false);
                    onImportBookmarks();
                  }}
                >
                  {t('space.importBookmarks')}
                </button>
              ) : null}
              {onExportBookmarks ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setOpen(false);
                    onExportBookmarks();
                  }}
                >
                  {t('space.exportBookmarks')}
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
