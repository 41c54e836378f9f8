type Child = Node | string | null | false | undefined;
type Props = Record<string, string | number | boolean | null | undefined>;

/**
 * An element with its attributes and children: `true` sets a boolean attribute, `false`,
 * null and undefined leave it out. Text is always text: nothing here parses HTML, so a page
 * title or a link's name can never become markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === false || child === undefined) continue;
    element.append(child);
  }
  return element;
}

/**
 * Shows a message in a live region, or empties it. The region itself stays in the page, so
 * that a screen reader announces what appears in it.
 */
export function say(region: HTMLElement, text: string | null) {
  region.textContent = text ?? '';
}

/** Marks a field invalid with a message under it, or clears it. */
export function markField(
  field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  message: HTMLElement,
  text: string | null,
) {
  say(message, text);
  if (text) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}
