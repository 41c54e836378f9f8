/**
 * Whether this tab's live-update stream is open (decision 0062): set by `useMenuEvents`, read
 * by the menu query to choose how often it asks on its own.
 */
let open = false;

export function setMenuStreamOpen(value: boolean) {
  open = value;
}

export function menuStreamOpen(): boolean {
  return open;
}
