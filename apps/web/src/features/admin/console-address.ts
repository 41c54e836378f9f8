import { goBack, navigate, pageState } from '../../lib/page-address';

/**
 * The console's addresses (decision 0077): one per section, per person and per team, and a
 * team's space. Pure parsing and printing, and the moves between them in the browser's
 * history. Imported by the app's top level, so it loads nothing of the console itself.
 */
export const CONSOLE_SECTIONS = [
  'people',
  'teams',
  'suggestions',
  'broken-links',
  'organization',
  'audit',
] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

export interface ConsoleView {
  /** null: `/console` itself, the first section the person may see. */
  section: ConsoleSection | null;
  /** A person (`/console/people/<id>`) or a team (`/console/teams/<id>`). */
  id: string | null;
  /** The team's space (`/console/teams/<id>/space`). */
  space: boolean;
}

const ROOT = '/console';

const isSection = (value: string | undefined): value is ConsoleSection =>
  (CONSOLE_SECTIONS as readonly string[]).includes(value ?? '');

/** The view an address shows; null for an address that is not the console's. */
export function parseConsolePath(pathname: string): ConsoleView | null {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] !== 'console') return null;
  const [, section, rawId, sub, ...rest] = parts;
  if (section === undefined) return { section: null, id: null, space: false };
  // An address of the console that names nothing it has opens its first section.
  if (!isSection(section) || rest.length > 0) return { section: null, id: null, space: false };
  let id: string | null;
  try {
    id = rawId === undefined ? null : decodeURIComponent(rawId);
  } catch {
    id = null;
  }
  const withId = section === 'people' || section === 'teams';
  if (!withId || id === null) return { section, id: null, space: false };
  return { section, id, space: section === 'teams' && sub === 'space' };
}

/** The address of a view. */
export function consolePath(view: Partial<ConsoleView>): string {
  if (!view.section) return ROOT;
  const base = `${ROOT}/${view.section}`;
  if (!view.id || (view.section !== 'people' && view.section !== 'teams')) return base;
  const item = `${base}/${encodeURIComponent(view.id)}`;
  return view.space && view.section === 'teams' ? `${item}/space` : item;
}

/**
 * Shows a view of the console as a new history entry, so that the back button returns to the
 * one before; the depth counts the console's entries since the portal's.
 */
export function openConsoleView(view: Partial<ConsoleView> = {}, openCollection?: string) {
  const inConsole = parseConsolePath(window.location.pathname) !== null;
  const here = pageState();
  const then = openCollection ? { openCollection } : {};
  navigate(consolePath(view), {
    state: inConsole
      ? {
          consoleDepth: (here.consoleDepth ?? 0) + 1,
          fromPortal: here.fromPortal === true,
          ...then,
        }
      : { consoleDepth: 1, fromPortal: true, ...then },
  });
}

/** The portal, with a collection open: where a link of the console lives. */
export function openInPortal(collectionId: string) {
  navigate('/', { state: { openCollection: collectionId } });
}

/** Shows a view in place of the current one (a section the person may not see). */
export function replaceConsoleView(view: Partial<ConsoleView>) {
  navigate(consolePath(view), { replace: true, state: pageState() });
}

/**
 * Back to the portal: as far back in the history as the console went, so that the portal is
 * where it was; a console opened from a bookmark or a reload has no portal behind it, and the
 * portal is opened as the next page.
 */
export function closeConsole() {
  const { consoleDepth = 0, fromPortal = false } = pageState();
  if (fromPortal && consoleDepth > 0) goBack(consoleDepth);
  else navigate('/');
}
