import type { CSSProperties } from 'react';
import type { MoveTarget } from '../lib/menu/arrange';

/**
 * The collections a move can go to (decision 0075), one button each, indented by depth, each
 * named with where it lives: shared by Move to… and the move of several items.
 */
export function MoveTargetList({
  targets,
  disabled,
  onChoose,
}: {
  targets: readonly MoveTarget[];
  disabled: boolean;
  onChoose: (collectionId: string) => void;
}) {
  return (
    <ul className="action-list move-to__list">
      {targets.map((target) => (
        <li key={target.id} style={{ '--depth': target.depth } as CSSProperties}>
          <button
            type="button"
            className="button action-list__button move-to__target"
            disabled={disabled}
            onClick={() => onChoose(target.id)}
          >
            <span className="move-to__name">{target.path.at(-1)}</span>
            {target.path.length > 1 ? (
              <span className="hint move-to__path">{target.path.slice(0, -1).join(' › ')}</span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
