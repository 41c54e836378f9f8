import { KeyboardCode, type KeyboardCoordinateGetter } from '@dnd-kit/core';

const NEXT = [KeyboardCode.Down, KeyboardCode.Right];
const PREVIOUS = [KeyboardCode.Up, KeyboardCode.Left];

/**
 * Arrow keys step from one drop target to the next (in reading order) instead of moving a
 * few pixels, so a keyboard user reaches every collection, zone and place in a few presses.
 */
export const stepThroughTargets: KeyboardCoordinateGetter = (event, { context }) => {
  const forward = NEXT.includes(event.code as KeyboardCode);
  if (!forward && !PREVIOUS.includes(event.code as KeyboardCode)) return undefined;
  event.preventDefault();
  const { active, collisionRect, droppableRects, droppableContainers, over } = context;
  if (!collisionRect) return undefined;
  // The carried item's own place is no target: dropping it there would change nothing.
  const ownPlace = active ? `place:${String(active.id)}` : null;
  const targets = droppableContainers
    .getEnabled()
    .filter((container) => container.id !== ownPlace)
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((entry): entry is { id: typeof entry.id; rect: NonNullable<typeof entry.rect> } =>
      Boolean(entry.rect),
    )
    .sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left);
  if (targets.length === 0) return undefined;
  const current = targets.findIndex((target) => target.id === over?.id);
  const index =
    current === -1
      ? forward
        ? 0
        : targets.length - 1
      : (current + (forward ? 1 : -1) + targets.length) % targets.length;
  const { rect } = targets[index]!;
  return {
    x: rect.left + rect.width / 2 - collisionRect.width / 2,
    y: rect.top + rect.height / 2 - collisionRect.height / 2,
  };
};
