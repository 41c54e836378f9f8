import { useState, type CSSProperties } from 'react';

/** A link's icon, or a letter badge when it has none (or the icon fails to load). */
export function LinkIcon({ name, icon }: { name: string; icon: string | null }) {
  const [failed, setFailed] = useState(false);
  if (icon && !failed) {
    return (
      <img
        className="link-icon"
        src={icon}
        alt=""
        width={32}
        height={32}
        loading="lazy"
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
      />
    );
  }
  const letter = name.trim().charAt(0).toUpperCase() || '?';
  // The hue is derived from the name so a badge keeps its colour between visits.
  let hue = 0;
  for (const char of name) hue = (hue * 31 + char.charCodeAt(0)) % 360;
  return (
    <span
      className="link-icon link-icon--letter"
      aria-hidden="true"
      style={{ '--badge-hue': hue } as CSSProperties}
    >
      {letter}
    </span>
  );
}
