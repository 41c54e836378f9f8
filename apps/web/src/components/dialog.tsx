import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { OVERLAY_EXIT_MS } from '../lib/constants';
import { prefersReducedMotion } from '../lib/motion';
import { CloseIcon } from './icons';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Shown before the title, e.g. a back arrow. */
  leading?: ReactNode;
  /** Shown after the title, e.g. a menu button. */
  trailing?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
  /** 'sheet' slides from the side on wide screens (panels); 'center' is a centered modal. */
  variant?: 'center' | 'sheet';
  className?: string;
  /**
   * What takes the focus when the dialog opens, when it is not the first text field (a file
   * field, which the browser would pass over for the close button).
   */
  initialFocus?: RefObject<HTMLElement | null>;
}

/**
 * A modal on the native <dialog> element: the browser traps focus, closes it on Escape,
 * makes the rest of the page inert and restores focus on close.
 */
const FIRST_FIELD =
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([disabled]), textarea:not([disabled])';

export function Dialog({
  open,
  onClose,
  title,
  leading,
  trailing,
  footer,
  children,
  variant = 'center',
  className,
  initialFocus,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useTranslation();
  const [closing, setClosing] = useState(false);
  const exitTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(exitTimer.current), []);

  /** Closing by the person (close button, Escape, backdrop): the exit animation, then close. */
  const requestClose = () => {
    if (prefersReducedMotion()) return onClose();
    if (exitTimer.current !== undefined) return;
    setClosing(true);
    exitTimer.current = window.setTimeout(() => {
      exitTimer.current = undefined;
      setClosing(false);
      onClose();
    }, OVERLAY_EXIT_MS);
  };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before the dialog is open, so the browser would then focus the
      // first button (the close button). A panel with a text field wants typing to go there.
      (initialFocus?.current ?? dialog.querySelector<HTMLElement>(FIRST_FIELD))?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, initialFocus]);

  if (!open) return null;
  return (
    // The backdrop closes the dialog on a click, as Escape does from the keyboard (onCancel):
    // the click is the pointer's way to a close the keyboard already has.
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions -- see above
    <dialog
      ref={ref}
      className={`dialog dialog--${variant}${closing ? ' dialog--closing' : ''} ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) requestClose();
      }}
    >
      <div className="dialog__frame">
        <header className="dialog__header">
          {leading}
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {trailing}
          <button
            type="button"
            className="icon-button"
            onClick={requestClose}
            aria-label={t('portal.close')}
          >
            <CloseIcon />
          </button>
        </header>
        <div className="dialog__body">{children}</div>
        {footer ? <footer className="dialog__footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
