import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
}

/**
 * A modal on the native <dialog> element: the browser traps focus, closes it on Escape,
 * makes the rest of the page inert and restores focus on close.
 */
const FIRST_FIELD =
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([disabled]), textarea:not([disabled])';

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
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useTranslation();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before the dialog is open, so the browser would then focus the
      // first button (the close button). A panel with a text field wants typing to go there.
      dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${variant} ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) onClose();
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
            onClick={onClose}
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
