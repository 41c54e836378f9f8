import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
} from '@dnd-kit/core';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowUpIcon, GripIcon, TrashIcon } from '../../../components/icons';
import { LONG_PRESS_MS } from '../../../lib/constants';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { isCollection } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import { isDraggable, useDropItem, type DropTarget } from '../api/drop-item';
import { stepThroughTargets } from './keyboard-targets';
import '../../../lib/panel-texts';

/** A mouse drag starts after a few pixels, so a click still opens the link. */
const MOUSE_DRAG_DISTANCE_PX = 5;
/** A finger may wobble this much while holding an item. */
const TOUCH_TOLERANCE_PX = 8;

export interface DragDropGridProps {
  items: DisplayItem[];
  /** The collection the items can be moved up to (the to-parent zone); null at the top. */
  parent: { id: string; name: string } | null;
  /** The trash zone exists in the personal space only. */
  withTrash: boolean;
  /**
   * The collection whose items these are, where the person may reorder them: each item's
   * place is then a drop target too (decision 0075).
   */
  reorder?: { id: string; name: string } | null;
  renderTile: (item: DisplayItem) => ReactNode;
}

type DropData = { target: DropTarget; label: string };

// The pointer decides where a mouse or finger drops; the keyboard moves the item's box.
const collisionDetection: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : rectIntersection(args);
};

/**
 * A mouse drag ends with the button released over the carried tile, and the browser then
 * clicks that link, which would open it in a new tab. dnd-kit keeps the click from the app
 * (it stops it at the document) but not from the browser: its default is prevented here, at
 * the window, before the document sees it. The guard is gone by the next task: a drop by
 * touch or by the keyboard is followed by no click.
 */
function swallowTheDropClick() {
  const swallow = (event: Event) => event.preventDefault();
  window.addEventListener('click', swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
}

function nameOf(item: DisplayItem) {
  return 'name' in item ? item.name : '';
}

/**
 * One tile, drawn again only when its item or the way tiles are drawn changes: picking an
 * item up or putting it down re-renders the grid, not the hundreds of tiles in it.
 */
const Tile = memo(function Tile({
  item,
  render,
}: {
  item: DisplayItem;
  render: (item: DisplayItem) => ReactNode;
}) {
  return <>{render(item)}</>;
});

const DraggableTile = memo(function DraggableTile({
  item,
  reorder,
  items,
  render,
}: {
  item: DisplayItem;
  /** The collection whose items may be reordered: the item's place is then a drop target. */
  reorder: { id: string; name: string } | null;
  items: DisplayItem[];
  render: (item: DisplayItem) => ReactNode;
}) {
  const { t } = useTranslation();
  const place = useMemo<DropData | null>(
    () =>
      reorder
        ? {
            target: { kind: 'place', item, collection: { ...reorder, items } },
            label: t('dragDrop.place', { name: nameOf(item) }),
          }
        : null,
    [reorder, item, items, t],
  );
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, isDragging } =
    useDraggable({ id: `${item.type}:${item.id}`, data: { item } });
  const droppable = useDroppable({
    id: `place:${item.type}:${item.id}`,
    data: place ?? undefined,
    disabled: place === null,
  });
  const over = droppable.isOver && !isDragging;
  const style = transform
    ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` }
    : undefined;
  // The place is the tile's slot, which stays where it is while the tile itself is carried.
  return (
    <div ref={droppable.setNodeRef} className={`place${over ? ' place--over' : ''}`}>
      <div
        ref={setNodeRef}
        className={`draggable${isDragging ? ' draggable--dragging' : ''}`}
        style={style}
        // The browser's own drag of a link or an image would take the pointer away.
        onDragStart={(event) => event.preventDefault()}
        {...listeners}
      >
        <Tile item={item} render={render} />
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="icon-button drag-handle"
          {...attributes}
          aria-label={t('dragDrop.handle', { name: nameOf(item) })}
        >
          <GripIcon />
        </button>
      </div>
    </div>
  );
});

function DroppableCollection({ item, children }: { item: DisplayItem; children: ReactNode }) {
  const name = nameOf(item);
  const data: DropData = { target: { kind: 'collection', id: item.id, name }, label: name };
  const { setNodeRef, isOver } = useDroppable({ id: `collection:${item.id}`, data });
  return (
    <div ref={setNodeRef} className={`droppable${isOver ? ' droppable--over' : ''}`}>
      {children}
    </div>
  );
}

function DropZone({ id, data, children }: { id: string; data: DropData; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id, data });
  return (
    <div
      ref={setNodeRef}
      className={`drop-zone drop-zone--${id}${isOver ? ' drop-zone--over' : ''}`}
      data-testid={`drop-zone-${id}`}
    >
      {children}
    </div>
  );
}

/**
 * A collection's items where links and favorites can be dragged (mouse, touch after a
 * LONG_PRESS_MS hold, or the keyboard through each item's move handle) onto a collection,
 * the to-parent zone or the trash (spec §4 Drag and drop), or, where the collection may be
 * reordered, onto another item's place (decision 0075). The zones show while dragging.
 */
export function DragDropGrid({
  items,
  parent,
  withTrash,
  reorder = null,
  renderTile,
}: DragDropGridProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState<DisplayItem | null>(null);
  const drop = useDropItem();
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: MOUSE_DRAG_DISTANCE_PX } }),
    useSensor(TouchSensor, {
      activationConstraint: { delay: LONG_PRESS_MS, tolerance: TOUCH_TOLERANCE_PX },
    }),
    useSensor(KeyboardSensor, { coordinateGetter: stepThroughTargets }),
  );

  const itemOf = (data: unknown) => (data as { item?: DisplayItem } | undefined)?.item ?? null;
  const labelOf = (data: unknown) => (data as DropData | undefined)?.label ?? '';

  const announcements: Announcements = {
    onDragStart: ({ active: dragged }) =>
      t('dragDrop.pickedUp', { name: nameOf(itemOf(dragged.data.current)!) }),
    onDragOver: ({ active: dragged, over }) => {
      const name = nameOf(itemOf(dragged.data.current)!);
      return over
        ? t('dragDrop.over', { name, target: labelOf(over.data.current) })
        : t('dragDrop.notOver', { name });
    },
    onDragEnd: ({ active: dragged, over }) => {
      const name = nameOf(itemOf(dragged.data.current)!);
      return over
        ? t('dragDrop.dropped', { name, target: labelOf(over.data.current) })
        : t('dragDrop.cancelled', { name });
    },
    onDragCancel: ({ active: dragged }) =>
      t('dragDrop.cancelled', { name: nameOf(itemOf(dragged.data.current)!) }),
  };

  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    swallowTheDropClick();
    setActive(null);
    const item = itemOf(dragged.data.current);
    const target = (over?.data.current as DropData | undefined)?.target;
    // Only links and favorites move; anything else dropped is left alone, and so is an item
    // put back on its own place.
    const ownPlace =
      target?.kind === 'place' && target.item.type === item?.type && target.item.id === item?.id;
    if (item && target && isDraggable(item) && !ownPlace) drop.mutate({ item, target });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t('dragDrop.instructions') },
      }}
      onDragStart={({ active: dragged }) => setActive(itemOf(dragged.data.current))}
      onDragCancel={() => {
        swallowTheDropClick();
        setActive(null);
      }}
      onDragEnd={onDragEnd}
    >
      {active && (parent || withTrash) ? (
        <div className="drop-zones">
          {parent ? (
            <DropZone
              id="to-parent"
              data={{
                target: { kind: 'to-parent', id: parent.id, name: parent.name },
                label: t('dragDrop.toParent', { name: parent.name }),
              }}
            >
              <ArrowUpIcon />
              {t('dragDrop.toParent', { name: parent.name })}
            </DropZone>
          ) : null}
          {withTrash ? (
            <DropZone id="trash" data={{ target: { kind: 'trash' }, label: t('dragDrop.trash') }}>
              <TrashIcon />
              {t('dragDrop.trash')}
            </DropZone>
          ) : null}
        </div>
      ) : null}
      {drop.isError ? (
        <p className="form-error" role="alert">
          {serverMessage(drop.error)?.text ?? t('write.failed')}
        </p>
      ) : null}
      <ul className="tile-grid">
        {items.map((item) => (
          <li key={`${item.type}:${item.id}`}>
            {isDraggable(item) ? (
              <DraggableTile item={item} reorder={reorder} items={items} render={renderTile} />
            ) : isCollection(item) ? (
              <DroppableCollection item={item}>
                <Tile item={item} render={renderTile} />
              </DroppableCollection>
            ) : (
              <Tile item={item} render={renderTile} />
            )}
          </li>
        ))}
      </ul>
    </DndContext>
  );
}
