import { useTranslation } from 'react-i18next';
import { LinkIcon } from '../../../components/link-icon';
import type { LinkLike, SearchEntry } from '../../../lib/menu/menu-types';
import { safeHref } from '../../../lib/safe-url';

interface Props {
  id: string;
  entry: SearchEntry;
  /** Reached by the arrow keys (the combobox's aria-activedescendant). */
  active: boolean;
  onOpen: (link: LinkLike) => void;
  /** A right-click opens the result's details instead of the browser's menu. */
  onDetails?: (entry: SearchEntry) => void;
}

/**
 * One result of the search: an option of the combobox's listbox, which a click or Enter opens
 * in a new tab. It is not a link inside an option (an option holds no interactive content).
 */
export function ResultOption({ id, entry, active, onOpen, onDetails }: Props) {
  const { t } = useTranslation();
  const { item } = entry;
  const safe = safeHref(item.url) !== null;
  return (
    // The combobox's input keeps the focus and handles the keys (aria-activedescendant);
    // a click opens the option too.
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- see above
    <li
      id={id}
      role="option"
      aria-selected={active}
      aria-disabled={safe ? undefined : true}
      className={`option result${active ? ' option--active' : ''}${safe ? '' : ' option--disabled'}`}
      title={safe ? item.description || item.name : t('item.unsafeUrl')}
      // The field keeps the focus.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => onOpen(item)}
      onContextMenu={
        onDetails
          ? (event) => {
              event.preventDefault();
              onDetails(entry);
            }
          : undefined
      }
    >
      <LinkIcon name={item.name} icon={item.icon} />
      <span className="option__name">{item.name}</span>
      <span className="result__location">{entry.locationTree.join(' > ')}</span>
      {safe ? <span className="visually-hidden"> {t('item.opensInNewTab')}</span> : null}
    </li>
  );
}
