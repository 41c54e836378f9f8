import type { Locator, Page } from '@playwright/test';

/** An element's text against what is behind it, as a person sees them. */
export interface Contrast {
  /** The element, as the check names it (tag, classes and text). */
  element: string;
  foreground: string;
  background: string;
  ratio: number;
  /** What WCAG AA asks of text of its size: 4.5, or 3 for large text. */
  required: number;
}

/**
 * The contrast of each element's text against its background, computed from the styles the
 * browser applied: the text colour (with its alpha and the opacity of the element and its
 * ancestors) over the background colours of the element and its ancestors, composed from the
 * first opaque one up. It is what axe's `color-contrast` rule leaves "to review" when it
 * cannot tell the background (an element that is fixed, overlaps or has a shadow): here the
 * background is taken from the ancestors, which holds for text on a box of its own, as the
 * portal draws it. Disabled controls and decoration (what is hidden from assistive
 * technology) are left out, as WCAG leaves them out.
 */
function measure(elements: Element[]): Contrast[] {
  type Rgba = [number, number, number, number];
  const canvas = document.createElement('canvas').getContext('2d')!;
  /** Any CSS colour the browser computed (rgb(), rgba(), color(srgb …)) as sRGB 0–255. */
  const parse = (css: string): Rgba => {
    const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(css);
    if (srgb) {
      return [
        Number(srgb[1]) * 255,
        Number(srgb[2]) * 255,
        Number(srgb[3]) * 255,
        srgb[4] === undefined ? 1 : Number(srgb[4]),
      ];
    }
    const rgb = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+))?\)$/.exec(css);
    if (rgb) {
      return [
        Number(rgb[1]),
        Number(rgb[2]),
        Number(rgb[3]),
        rgb[4] === undefined ? 1 : Number(rgb[4]),
      ];
    }
    // Anything else: let a canvas turn it into rgb()/rgba().
    canvas.fillStyle = '#000';
    canvas.fillStyle = css;
    const style = String(canvas.fillStyle);
    if (!style.startsWith('#')) return parse(style);
    const channel = (at: number) => parseInt(style.slice(at, at + 2), 16);
    return [channel(1), channel(3), channel(5), 1];
  };
  /** `top` drawn over an opaque `bottom`. */
  const over = (top: Rgba, bottom: Rgba): Rgba => [
    top[0] * top[3] + bottom[0] * (1 - top[3]),
    top[1] * top[3] + bottom[1] * (1 - top[3]),
    top[2] * top[3] + bottom[2] * (1 - top[3]),
    1,
  ];
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const show = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;

  const results: Contrast[] = [];
  for (const element of elements) {
    if ((element as HTMLButtonElement).disabled) continue;
    // Hidden from assistive technology, it is decoration (a link's letter badge stands for
    // its icon, beside its name).
    if (element.closest('[aria-hidden="true"]')) continue;
    // The backgrounds from the element up, until an opaque one; the page's canvas below.
    const layers: Rgba[] = [];
    let opacity = 1;
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      opacity *= Number(style.opacity);
      const background = parse(style.backgroundColor);
      if (background[3] > 0) layers.push(background);
      if (background[3] >= 1) break;
    }
    const canvasColour: Rgba = matchMedia('(prefers-color-scheme: dark)').matches
      ? [0, 0, 0, 1]
      : [255, 255, 255, 1];
    const background = layers.reduceRight<Rgba>((below, layer) => over(layer, below), canvasColour);
    const style = getComputedStyle(element);
    const text = parse(style.color);
    const foreground = over([text[0], text[1], text[2], text[3] * opacity], background);
    const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const classes = Array.from(element.classList).join('.');
    results.push({
      element: `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`,
      foreground: show(foreground),
      background: show(background),
      ratio: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100,
      required: large ? 3 : 4.5,
    });
  }
  return results;
}

/** The contrasts below what WCAG AA asks, among the elements that `locator` finds. */
export async function lowContrasts(locator: Locator): Promise<Contrast[]> {
  const contrasts = await locator.evaluateAll(measure);
  if (contrasts.length === 0) throw new Error(`Nothing to measure: ${locator.toString()}`);
  return contrasts.filter((c) => c.ratio < c.required);
}

/** The same for the elements a CSS selector finds in the page (axe names its nodes so). */
export async function lowContrastsAt(page: Page, selector: string): Promise<Contrast[]> {
  const contrasts = await page.locator(selector).evaluateAll(measure);
  return contrasts.filter((c) => c.ratio < c.required);
}
