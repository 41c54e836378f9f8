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
  type DraggableAttributes,
  type DraggableSyntheticListeners,
  type KeyboardSensorOptions,
  type MouseSensorOptions,
  type TouchSensorOptions,
} from '@dnd-kit/core';
import {
  memo,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowUpIcon, GripIcon, TrashIcon } from '../../../components/icons';
import { LONG_PRESS_MS } from '../../../lib/constants';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { isCollection } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import { isDraggable, useDropItem, type DropTarget } from '../api/drop-item';
import { stepThroughTargets } from './keyboard-targets';
import { createNearScreen, NearScreenContext, useNearScreen } from './near-screen';
import '../../../lib/panel-texts';

/** A mouse drag starts after a few pixels, so a click still opens the link. */
const MOUSE_DRAG_DISTANCE_PX = 5;
/** A finger may wobble this much while holding an item. */
const TOUCH_TOLERANCE_PX = 8;

/*
 * The sensors' options, made once: dnd-kit makes its sensors again when their options
 * change, and with them what it gives every draggable, which would draw each near tile again
 * whenever the grid is drawn.
 */
const MOUSE: MouseSensorOptions = { activationConstraint: { distance: MOUSE_DRAG_DISTANCE_PX } };
const TOUCH: TouchSensorOptions = {
  activationConstraint: { delay: LONG_PRESS_MS, tolerance: TOUCH_TOLERANCE_PX },
};
const KEYBOARD: KeyboardSensorOptions = { coordinateGetter: stepThroughTargets };

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

/** A zone's or a collection's drop target, with the name announced for it. */
type DropData = { target: DropTarget; label: string };
/**
 * An item's place: its target is made when it is needed, from the collection as the grid
 * has it then, so a tile is not drawn again whenever another item of the collection changes.
 */
type PlaceData = { place: DisplayItem };

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

/** What a draggable tile's hooks give its elements while it is near the screen. */
interface LiveTile {
  listeners: DraggableSyntheticListeners;
  attributes: DraggableAttributes;
  isDragging: boolean;
  /** The carried item is over this tile's place. */
  over: boolean;
  transform: string | undefined;
}

/**
 * The handle's attributes while its tile is far from the screen: dnd-kit's own for a handle
 * that is not carried, so the handle reads the same wherever its tile is.
 */
const restingAttributes = (describedBy: string): DraggableAttributes => ({
  role: 'button',
  tabIndex: 0,
  'aria-disabled': false,
  'aria-pressed': undefined,
  'aria-roledescription': 'draggable',
  'aria-describedby': describedBy,
});

/**
 * The dnd-kit hooks of one draggable tile: it can be carried, and its place (where the
 * collection may be reordered) is a drop target. Rendered only while the tile is near the
 * screen, since every hook is drawn again whenever a drag starts, moves over another target
 * or ends (decision 0083). It draws nothing: it binds the tile's elements, which stay the
 * same whether it is there or not, and tells the tile what they carry.
 */
const DraggableBinding = memo(function DraggableBinding({
  item,
  place,
  placeRef,
  draggableRef,
  handleRef,
  onChange,
}: {
  item: DisplayItem;
  place: boolean;
  placeRef: RefObject<HTMLDivElement | null>;
  draggableRef: RefObject<HTMLDivElement | null>;
  handleRef: RefObject<HTMLButtonElement | null>;
  onChange: (live: LiveTile | null) => void;
}) {
  const data = useMemo(() => ({ item }), [item]);
  const placeData = useMemo<PlaceData | undefined>(
    () => (place ? { place: item } : undefined),
    [place, item],
  );
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, isDragging } =
    useDraggable({ id: `${item.type}:${item.id}`, data });
  const droppable = useDroppable({
    id: `place:${item.type}:${item.id}`,
    data: placeData,
    disabled: !place,
  });
  const setPlaceRef = droppable.setNodeRef;
  useLayoutEffect(() => {
    setPlaceRef(placeRef.current);
    setNodeRef(draggableRef.current);
    setActivatorNodeRef(handleRef.current);
  }, [setPlaceRef, setNodeRef, setActivatorNodeRef, placeRef, draggableRef, handleRef]);
  // The place is the tile's slot, which stays where it is while the tile itself is carried.
  const over = droppable.isOver && !isDragging;
  const translate = transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined;
  useLayoutEffect(
    () => onChange({ listeners, attributes, isDragging, over, transform: translate }),
    [onChange, listeners, attributes, isDragging, over, translate],
  );
  useLayoutEffect(() => () => onChange(null), [onChange]);
  return null;
});

const DraggableTile = memo(function DraggableTile({
  item,
  place,
  describedBy,
  render,
}: {
  item: DisplayItem;
  /** The collection may be reordered: the item's place is then a drop target. */
  place: boolean;
  /** The id of dnd-kit's instructions for screen readers. */
  describedBy: string;
  render: (item: DisplayItem) => ReactNode;
}) {
  const { t } = useTranslation();
  const placeRef = useRef<HTMLDivElement>(null);
  const draggableRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLButtonElement>(null);
  const [live, setLive] = useState<LiveTile | null>(null);
  const near = useNearScreen(placeRef, live?.isDragging ?? false);
  const shown = near ? live : null;
  return (
    <>
      <div
        ref={placeRef}
        className={`place${shown?.over ? ' place--over' : ''}${near ? '' : ' place--far'}`}
      >
        <div
          ref={draggableRef}
          className={`draggable${shown?.isDragging ? ' draggable--dragging' : ''}`}
          style={shown?.transform ? { transform: shown.transform } : undefined}
          // The browser's own drag of a link or an image would take the pointer away.
          onDragStart={(event) => event.preventDefault()}
          {...shown?.listeners}
        >
          <Tile item={item} render={render} />
          <button
            type="button"
            ref={handleRef}
            className="icon-button drag-handle"
            {...(shown?.attributes ?? restingAttributes(describedBy))}
            aria-label={t('dragDrop.handle', { name: nameOf(item) })}
          >
            <GripIcon />
          </button>
        </div>
      </div>
      {near ? (
        <DraggableBinding
          item={item}
          place={place}
          placeRef={placeRef}
          draggableRef={draggableRef}
          handleRef={handleRef}
          onChange={setLive}
        />
      ) : null}
    </>
  );
});

/** A collection's drop target, bound while it is near the screen (as DraggableBinding). */
const CollectionBinding = memo(function CollectionBinding({
  item,
  nodeRef,
  onOver,
}: {
  item: DisplayItem;
  nodeRef: RefObject<HTMLDivElement | null>;
  onOver: (over: boolean) => void;
}) {
  const name = nameOf(item);
  const data = useMemo<DropData>(
    () => ({ target: { kind: 'collection', id: item.id, name }, label: name }),
    [item.id, name],
  );
  const { setNodeRef, isOver } = useDroppable({ id: `collection:${item.id}`, data });
  useLayoutEffect(() => setNodeRef(nodeRef.current), [setNodeRef, nodeRef]);
  useLayoutEffect(() => onOver(isOver), [onOver, isOver]);
  useLayoutEffect(() => () => onOver(false), [onOver]);
  return null;
});

const DroppableCollection = memo(function DroppableCollection({
  item,
  render,
}: {
  item: DisplayItem;
  render: (item: DisplayItem) => ReactNode;
}) {
  const nodeRef = useRef<HTMLDivElement>(null);
  const [isOver, setOver] = useState(false);
  const near = useNearScreen(nodeRef, false);
  return (
    <>
      <div
        ref={nodeRef}
        className={`droppable${near ? (isOver ? ' droppable--over' : '') : ' droppable--far'}`}
      >
        <Tile item={item} render={render} />
      </div>
      {near ? <CollectionBinding item={item} nodeRef={nodeRef} onOver={setOver} /> : null}
    </>
  );
});

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
 * reordered, onto another item's place (decision 0075). The zones show while dragging. Only
 * the items near the screen take part, and the others are not drawn by the browser until they
 * come near (decision 0083).
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
  // dnd-kit names its instructions for screen readers after the context's id.
  const describedBy = `${useId()}drag-instructions`;
  const [nearScreen] = useState(createNearScreen);
  useEffect(() => () => nearScreen?.disconnect(), [nearScreen]);
  const drop = useDropItem();
  const sensors = useSensors(
    useSensor(MouseSensor, MOUSE),
    useSensor(TouchSensor, TOUCH),
    useSensor(KeyboardSensor, KEYBOARD),
  );

  const itemOf = (data: unknown) => (data as { item?: DisplayItem } | undefined)?.item ?? null;
  const dropDataOf = (data: unknown): DropData | null => {
    const given = data as DropData | PlaceData | undefined;
    if (!given) return null;
    if (!('place' in given)) return given;
    if (!reorder) return null;
    return {
      target: { kind: 'place', item: given.place, collection: { ...reorder, items } },
      label: t('dragDrop.place', { name: nameOf(given.place) }),
    };
  };
  const labelOf = (data: unknown) => dropDataOf(data)?.label ?? '';

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

  // Drawn again when the items change, not when a drag starts or ends.
  const place = reorder !== null;
  const grid = useMemo(
    () => (
      <ul className="tile-grid">
        {items.map((item) => (
          <li key={`${item.type}:${item.id}`}>
            {isDraggable(item) ? (
              <DraggableTile
                item={item}
                place={place}
                describedBy={describedBy}
                render={renderTile}
              />
            ) : isCollection(item) ? (
              <DroppableCollection item={item} render={renderTile} />
            ) : (
              <Tile item={item} render={renderTile} />
            )}
          </li>
        ))}
      </ul>
    ),
    [items, place, describedBy, renderTile],
  );

  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    swallowTheDropClick();
    setActive(null);
    const item = itemOf(dragged.data.current);
    const target = dropDataOf(over?.data.current)?.target;
    // Only links and favorites move; anything else dropped is left alone, and so is an item
    // put back on its own place.
    const ownPlace =
      target?.kind === 'place' && target.item.type === item?.type && target.item.id === item?.id;
    if (item && target && isDraggable(item) && !ownPlace) drop.mutate({ item, target });
  };

  return (
    <DndContext
      id={describedBy}
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
      <NearScreenContext.Provider value={nearScreen}>{grid}</NearScreenContext.Provider>
    </DndContext>
  );
}
