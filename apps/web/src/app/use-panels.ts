import type { BookmarkImportTarget } from '@signpost/contract';
import { useCallback, useState } from 'react';
import type { LinkDraft } from '../components/link-fields';
import type { ExportPlace } from '../lib/menu/bookmark-places';
import type { DisplayItem } from '../lib/menu/menu-types';

/**
 * The open panels of the portal, as a stack: the last one is shown; 'back' returns to the
 * one below. A panel id denotes its target space or collection (spec §3).
 */
export type Panel =
  /** `query`: the terms it opens with (the portal opened with `/?q=…`). */
  | { kind: 'search'; query?: string }
  | { kind: 'space'; id: string }
  | { kind: 'collection'; id: string; parentPanelId: string | null }
  | { kind: 'feedback' }
  | { kind: 'consent' }
  | { kind: 'settings' }
  /** The links that need the person: broken, or moved (decision 0069). */
  | { kind: 'attention' }
  /** `draft`: a page sent to be added (`#add?…`), shown filled in on the link form. */
  | { kind: 'add'; id: string; parentPanelId: string; draft?: LinkDraft }
  /** A top-level collection of a team or organization space, for the people who run it. */
  | { kind: 'add-collection'; spaceId: string }
  | { kind: 'members'; id: string }
  /** `edit`: opened with the fields to edit (the item menu's Edit). */
  | { kind: 'collection-details'; id: string; edit?: boolean }
  | { kind: 'link-details'; id: string; itemType: 'link' | 'link-favorite'; edit?: boolean }
  | { kind: 'item-menu'; id: string; itemType: DisplayItem['type'] }
  /** The collections an item can move to (decision 0075). */
  | { kind: 'move-to'; id: string; itemType: DisplayItem['type'] }
  /** A bookmark file into a place (decision 0087); `file`: one dropped on the portal. */
  | { kind: 'bookmark-import'; target: BookmarkImportTarget; file?: File }
  /** A collection or a space out as a file (decision 0087). */
  | { kind: 'bookmark-export'; place: ExportPlace };

export type PanelOf<K extends Panel['kind']> = Extract<Panel, { kind: K }>;

/** The panels about the menu's collections and items, composed in portal-panels.tsx. */
export type MenuPanel = PanelOf<
  | 'collection'
  | 'add'
  | 'add-collection'
  | 'members'
  | 'collection-details'
  | 'link-details'
  | 'item-menu'
  | 'move-to'
>;

export function usePanels() {
  const [stack, setStack] = useState<Panel[]>([]);
  const open = useCallback((panel: Panel) => setStack((current) => [...current, panel]), []);
  const back = useCallback(() => setStack((current) => current.slice(0, -1)), []);
  const closeAll = useCallback(() => setStack([]), []);
  return { top: stack[stack.length - 1] ?? null, stack, open, back, closeAll };
}
