import type { Rgba } from './png';

/** The sizes of the icon the manifest names (toolbar, menus, the extensions page, stores). */
export const ICON_SIZES = [16, 32, 48, 128] as const;

/** The portal's accent colour (apps/web/src/styles.css, `--accent`). */
const ACCENT = [0x1d, 0x5f, 0xd1] as const;

type Shape = (x: number, y: number) => boolean;

/** A rectangle with rounded corners, in the unit square. */
const roundedSquare =
  (radius: number): Shape =>
  (x, y) => {
    const dx = Math.max(radius - x, 0, x - (1 - radius));
    const dy = Math.max(radius - y, 0, y - (1 - radius));
    return dx * dx + dy * dy <= radius * radius;
  };

const rectangle =
  (left: number, top: number, right: number, bottom: number): Shape =>
  (x, y) =>
    x >= left && x <= right && y >= top && y <= bottom;

/** A sign: a board whose one end is an arrow's point, to the right or to the left. */
const sign =
  (left: number, right: number, top: number, bottom: number, pointsRight: boolean): Shape =>
  (x, y) => {
    if (y < top || y > bottom) return false;
    const middle = (top + bottom) / 2;
    const half = (bottom - top) / 2;
    const tip = half * 0.9;
    const across = 1 - Math.abs(y - middle) / half; // 1 on the middle line, 0 at the edges
    return pointsRight
      ? x >= left && x <= right - tip + tip * across
      : x <= right && x >= left + tip - tip * across;
  };

/** The white signpost: a post with a sign to the right and a sign to the left. */
const SIGNPOST: Shape[] = [
  rectangle(0.455, 0.16, 0.545, 0.86),
  sign(0.22, 0.8, 0.22, 0.42, true),
  sign(0.2, 0.74, 0.5, 0.68, false),
];
const BACKGROUND = roundedSquare(0.22);

/** How many samples per pixel edge: 4 × 4 samples make smooth edges at 16 px. */
const SAMPLES = 4;

/** The extension's icon at `size` × `size` pixels: a white signpost on the accent colour. */
export function drawIcon(size: number): Rgba {
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let covered = 0;
      let white = 0;
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          if (!BACKGROUND(x, y)) continue;
          covered += 1;
          if (SIGNPOST.some((shape) => shape(x, y))) white += 1;
        }
      }
      const at = (py * size + px) * 4;
      const share = covered === 0 ? 0 : white / covered;
      for (let channel = 0; channel < 3; channel += 1) {
        pixels[at + channel] = Math.round(ACCENT[channel]! * (1 - share) + 255 * share);
      }
      pixels[at + 3] = Math.round((covered / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return { width: size, height: size, pixels };
}
