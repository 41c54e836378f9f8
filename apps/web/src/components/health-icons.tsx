import { Icon } from './icons';

// The marks of links that need attention (decision 0069): loaded with the marks, after the
// paint, never with the first screen.

/** The mark of a broken link (decision 0069). */
export const WarningIcon = () => (
  <Icon data-icon="warning">
    <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
    <path d="M12 9v4M12 17h.01" />
  </Icon>
);
/** The mark of a moved link: it now leads elsewhere (decision 0069). */
export const MovedIcon = () => (
  <Icon data-icon="moved">
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);
