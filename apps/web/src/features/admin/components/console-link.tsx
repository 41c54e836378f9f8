import type { MouseEvent, ReactNode } from 'react';
import { consolePath, openConsoleView, type ConsoleView } from '../console-address';

/**
 * A link to a view of the console (decision 0077): a plain click shows it in place, as a new
 * history entry; a click with a modifier, the middle button or the browser's own menu opens
 * its address in a new tab or window, as any link does.
 */
export function ConsoleLink({
  view,
  label,
  className,
  children,
}: {
  view: Partial<ConsoleView>;
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    openConsoleView(view);
  };
  return (
    <a href={consolePath(view)} aria-label={label} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
