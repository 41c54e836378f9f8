import { useEffect, useState } from 'react';

/** The dark modules of a QR symbol, row by row, and its size in modules. */
export interface QrMatrix {
  size: number;
  isDark: (row: number, column: number) => boolean;
}

/** Modules of light margin around the symbol, as the standard asks (the quiet zone). */
const QUIET_ZONE = 4;

/**
 * The QR symbol of a text, encoded by the `qrcode` package. It is loaded when first needed,
 * so that the encoder is not part of the first screen's JavaScript.
 */
export async function encodeQr(text: string): Promise<QrMatrix> {
  const { create } = await import('qrcode');
  // Level M: enough to survive a smudged screen, small enough for an otpauth address.
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, isDark: (row, column) => modules.get(row, column) === 1 };
}

/** Each row's runs of dark modules, as [row, first column, length]. */
export function darkRuns(matrix: QrMatrix): [number, number, number][] {
  const runs: [number, number, number][] = [];
  for (let row = 0; row < matrix.size; row += 1) {
    let start = -1;
    for (let column = 0; column <= matrix.size; column += 1) {
      const dark = column < matrix.size && matrix.isDark(row, column);
      if (dark && start < 0) start = column;
      if (!dark && start >= 0) {
        runs.push([row, start, column - start]);
        start = -1;
      }
    }
  }
  return runs;
}

/**
 * A QR code drawn as SVG rectangles (no markup strings, no data: addresses). Dark on white
 * in every theme, since scanners need the contrast; `label` names it for screen readers.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [matrix, setMatrix] = useState<{ text: string; matrix: QrMatrix } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    encodeQr(text).then(
      (encoded) => {
        if (live) setMatrix({ text, matrix: encoded });
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [text]);

  // The key and the address stay on the page for those who cannot scan; a code that could
  // not be drawn leaves just them.
  if (failed) return null;
  const current = matrix?.text === text ? matrix.matrix : null;
  const side = (current?.size ?? 21) + 2 * QUIET_ZONE;
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      aria-busy={current ? undefined : true}
      viewBox={`0 0 ${side} ${side}`}
      shapeRendering="crispEdges"
      data-modules={current?.size}
    >
      <rect width={side} height={side} fill="#ffffff" />
      {current &&
        darkRuns(current).map(([row, column, length]) => (
          <rect
            key={`${row}-${column}`}
            x={column + QUIET_ZONE}
            y={row + QUIET_ZONE}
            width={length}
            height={1}
            fill="#000000"
          />
        ))}
    </svg>
  );
}
