import { KEPT_MENU_OWNER_KEY } from '../storage-keys';

/**
 * Whose menu this browser keeps (decision 0065): the short hash of the session's token
 * (`tokenKey`), in local storage, so that the first screen can tell at once, without opening
 * the store, that a kept menu has to go.
 */
const OWNER_KEY = KEPT_MENU_OWNER_KEY;

export function keptOwner(): string | null {
  try {
    return window.localStorage.getItem(OWNER_KEY);
  } catch {
    return null;
  }
}

export function setKeptOwner(owner: string | null) {
  try {
    if (owner === null) window.localStorage.removeItem(OWNER_KEY);
    else window.localStorage.setItem(OWNER_KEY, owner);
  } catch {
    // Storage disabled: the owner is checked again in the store itself.
  }
}
