import type { MoveItemsBody } from '@signpost/contract';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { MoveTargetList } from '../../../components/move-target-list';
import { entriesOf, moveTargets, type MoveTarget } from '../../../lib/menu/arrange';
import { locateItem, type Container } from '../../../lib/menu/locate-item';
import type { DisplaySpace, MenuEntry } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import { useBulkAction } from '../api/bulk-actions';
import '../../../lib/panel-texts';

type Chosen = MoveItemsBody['items'][number];

const keyOf = (item: MenuEntry) => `${item.type}:${item.id}`;
const chosenOf = (item: MenuEntry): Chosen => ({
  type: item.type === 'collection-share' ? 'collection' : item.type,
  id: item.id,
});

/** What may be chosen: an item the person may move or delete (not a share of someone else's). */
function choosable(item: MenuEntry): boolean {
  if (item.type === 'collection-share') return item.can.delete && !item.can.leave;
  return item.can.move || item.can.delete;
}

/** The collections every chosen item may go to: those each of them is offered. */
function commonTargets(spaces: readonly DisplaySpace[], items: MenuEntry[]): MoveTarget[] {
  const lists = items.map((item) => {
    const location = locateItem(spaces, item.type, item.id);
    return location ? moveTargets(location) : [];
  });
  const [first = [], ...rest] = lists;
  return first.filter((target) => rest.every((list) => list.some((t) => t.id === target.id)));
}

export interface SelectableItemsProps {
  spaces: readonly DisplaySpace[];
  collection: Container;
  /** The items as shown when nothing is being chosen. */
  children: ReactNode;
}

/**
 * Several items of a collection at once (decision 0075): "Select" turns the items into a list
 * with a box each (Space toggles a box, a shift-click chooses everything between it and the
 * last one chosen), and the chosen items move to another collection or are deleted together,
 * with one undo.
 */
export function SelectableItems({ spaces, collection, children }: SelectableItemsProps) {
  const { t } = useTranslation();
  const [selecting, setSelecting] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [moving, setMoving] = useState(false);
  const bulk = useBulkAction();
  const items = entriesOf(collection).filter(choosable);
  if (items.length === 0) return <>{children}</>;

  const picked = items.filter((item) => chosen.has(keyOf(item)));
  const label = t('selection.items', { count: picked.length });
  const stop = () => {
    setSelecting(false);
    setChosen(new Set());
    setAnchor(null);
    setMoving(false);
    bulk.reset();
  };

  const toggle = (index: number, event: MouseEvent<HTMLInputElement>) => {
    const item = items[index]!;
    const next = new Set(chosen);
    const on = !chosen.has(keyOf(item));
    if (event.shiftKey && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (const between of items.slice(from, to + 1)) {
        if (on) next.add(keyOf(between));
        else next.delete(keyOf(between));
      }
    } else if (on) {
      next.add(keyOf(item));
    } else {
      next.delete(keyOf(item));
    }
    setAnchor(index);
    setChosen(next);
  };

  const remove = async () => {
    const body = { items: picked.map(chosenOf) };
    if (await bulk.write({ action: 'delete', body, label })) stop();
  };
  const moveTo = async (collectionId: string) => {
    const body = { items: picked.map(chosenOf), collectionId };
    if (await bulk.write({ action: 'move', body, label })) stop();
  };

  if (!selecting) {
    return (
      <>
        <p className="selection__start">
          <button type="button" className="button" onClick={() => setSelecting(true)}>
            {t('selection.start')}
          </button>
        </p>
        {children}
      </>
    );
  }

  const targets = moving ? commonTargets(spaces, picked) : [];
  return (
    <div className="selection">
      <div className="selection__bar" role="toolbar" aria-label={t('selection.start')}>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={picked.length === items.length}
            onChange={(event) =>
              setChosen(event.target.checked ? new Set(items.map(keyOf)) : new Set())
            }
          />
          {t('selection.all')}
        </label>
        <span role="status" className="selection__count">
          {t('selection.count', { count: picked.length })}
        </span>
        <button
          type="button"
          className="button"
          disabled={picked.length === 0 || bulk.isPending}
          onClick={() => setMoving(true)}
        >
          {t('selection.moveTo')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={picked.length === 0 || bulk.isPending}
          onClick={() => void remove()}
        >
          {t('selection.delete')}
        </button>
        <button type="button" className="button" onClick={stop}>
          {t('selection.done')}
        </button>
      </div>
      <p className="hint">{t('selection.hint')}</p>
      {bulk.isError && !moving ? (
        <p className="form-error" role="alert">
          {serverMessage(bulk.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
      <ul className="selection__list">
        {items.map((item, index) => (
          <li key={keyOf(item)}>
            <label className="checkbox selection__item">
              <input
                type="checkbox"
                checked={chosen.has(keyOf(item))}
                onClick={(event) => toggle(index, event)}
                onChange={() => undefined}
                aria-label={t('selection.item', { name: item.name })}
              />
              <bdi>{item.name}</bdi>
            </label>
          </li>
        ))}
      </ul>
      {moving ? (
        <Dialog
          open
          onClose={() => setMoving(false)}
          variant="center"
          className="item-menu move-to"
          title={t('selection.moveTitle', { count: picked.length })}
        >
          {targets.length === 0 ? (
            <p className="hint">{t('itemMenu.moveToNone')}</p>
          ) : (
            <MoveTargetList
              targets={targets}
              disabled={bulk.isPending}
              onChoose={(id) => void moveTo(id)}
            />
          )}
          {bulk.isError ? (
            <p className="form-error" role="alert">
              {serverMessage(bulk.error)?.text ?? t('write.failed')}
            </p>
          ) : null}
        </Dialog>
      ) : null}
    </div>
  );
}
