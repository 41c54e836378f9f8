import type { LinkMark } from '../lib/link-health/context';
import { useTexts } from '../lib/use-texts';
import { MovedIcon, WarningIcon } from './health-icons';

/**
 * A broken or moved link's mark (decision 0069): an icon over the corner of its icon, and
 * words read after its name ("Wiki — broken link"), never a colour alone. Loaded when a tile
 * first has a mark: the list of marks is itself read after the paint.
 */
export function HealthMark({ mark }: { mark: LinkMark }) {
  const t = useTexts();
  const words = t(mark === 'broken' ? 'item.broken' : 'item.moved');
  return (
    <>
      <span className={`tile__health tile__health--${mark}`} aria-hidden="true" title={words}>
        {mark === 'broken' ? <WarningIcon /> : <MovedIcon />}
      </span>
      <span className="visually-hidden"> {words}</span>
    </>
  );
}
