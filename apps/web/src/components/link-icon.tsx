import { useState, type CSSProperties } from 'react';

/** Where the server keeps links' icons (decision 0068). */
const KEPT = /^\/api\/icons\/[A-Za-z0-9_-]+$/;

/**
 * The address of a kept icon at a size, in pixels: the server answers the smallest it keeps
 * of at least that size.
 */
export const iconAt = (icon: string, size: number) => `${icon}?size=${size}`;

/**
 * A link's icon over a letter badge. The badge shows until the image has actually loaded,
 * so an icon that fails, or is not there yet, never leaves a blank tile. Only icons the
 * server keeps are drawn: drawing the portal asks no other site for anything (decision 0068).
 * `size` is the size it is drawn at, in CSS pixels (a tile's, unless a larger one is asked).
 */
export function LinkIcon({
  name,
  icon,
  size = 32,
}: {
  name: string;
  icon: string | null;
  size?: number;
}) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const letter = name.trim().charAt(0).toUpperCase() || '?';
  // The hue is derived from the name so a badge keeps its colour between visits.
  let hue = 0;
  for (const char of name) hue = (hue * 31 + char.charCodeAt(0)) % 360;
  const showImage = icon !== null && KEPT.test(icon) && state !== 'failed';
  return (
    <span className="link-icon-frame" aria-hidden="true">
      {state !== 'loaded' && (
        <span
          className="link-icon link-icon--letter"
          data-testid="letter-badge"
          style={{ '--badge-hue': hue } as CSSProperties}
        >
          {letter}
        </span>
      )}
      {showImage && (
        <img
          className={state === 'loaded' ? 'link-icon' : 'link-icon link-icon--pending'}
          src={iconAt(icon, size)}
          srcSet={`${iconAt(icon, size * 2)} 2x, ${iconAt(icon, size * 3)} 3x`}
          alt=""
          width={size}
          height={size}
          loading="lazy"
          referrerPolicy="no-referrer"
          onLoad={() => setState('loaded')}
          onError={() => setState('failed')}
        />
      )}
    </span>
  );
}
