import { useState, type CSSProperties } from 'react';

/**
 * A link's icon over a letter badge. The badge shows until the image has actually loaded,
 * so an icon that fails, or never answers (a slow or unreachable host), never leaves a
 * blank tile.
 */
export function LinkIcon({ name, icon }: { name: string; icon: string | null }) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const letter = name.trim().charAt(0).toUpperCase() || '?';
  // The hue is derived from the name so a badge keeps its colour between visits.
  let hue = 0;
  for (const char of name) hue = (hue * 31 + char.charCodeAt(0)) % 360;
  const showImage = icon !== null && state !== 'failed';
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
          src={icon}
          alt=""
          width={32}
          height={32}
          loading="lazy"
          referrerPolicy="no-referrer"
          onLoad={() => setState('loaded')}
          onError={() => setState('failed')}
        />
      )}
    </span>
  );
}
