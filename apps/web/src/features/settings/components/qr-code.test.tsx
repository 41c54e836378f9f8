import { render, screen, waitFor } from '@testing-library/react';
import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { darkRuns, QrCode } from './qr-code';

const ADDRESS =
  'otpauth://totp/Signpost:ada%40example.com?issuer=Signpost&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30';

/** The grid the SVG shows: every dark rectangle's cells, back in symbol coordinates. */
function drawnGrid(svg: Element, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  const rects = [...svg.querySelectorAll('rect')];
  // The first rectangle is the white background with the quiet zone.
  expect(rects[0]).toHaveAttribute('fill', '#ffffff');
  expect(rects[0]).toHaveAttribute('width', String(size + 8));
  for (const rect of rects.slice(1)) {
    expect(rect).toHaveAttribute('fill', '#000000');
    const x = Number(rect.getAttribute('x')) - 4;
    const y = Number(rect.getAttribute('y')) - 4;
    expect(rect.getAttribute('height')).toBe('1');
    for (let i = 0; i < Number(rect.getAttribute('width')); i += 1) grid[y]![x + i] = true;
  }
  return grid;
}

describe('QR code', () => {
  it('draws every module of the encoded address, with a quiet zone, as SVG rectangles', async () => {
    render(<QrCode text={ADDRESS} label="QR code to scan" />);
    const svg = screen.getByRole('img', { name: 'QR code to scan' });
    await waitFor(() => expect(svg).toHaveAttribute('data-modules'));
    const { modules } = create(ADDRESS, { errorCorrectionLevel: 'M' });
    expect(svg).toHaveAttribute('data-modules', String(modules.size));
    expect(svg).toHaveAttribute('viewBox', `0 0 ${modules.size + 8} ${modules.size + 8}`);
    expect(svg).not.toHaveAttribute('aria-busy');
    const grid = drawnGrid(svg, modules.size);
    for (let row = 0; row < modules.size; row += 1) {
      for (let column = 0; column < modules.size; column += 1) {
        expect(grid[row]![column], `module ${row},${column}`).toBe(modules.get(row, column) === 1);
      }
    }
    // Drawn from elements only: no embedded markup, images or addresses.
    expect(svg.querySelector('image, foreignObject, use')).toBeNull();
    expect(svg.innerHTML).not.toContain('data:');
  });

  it('draws the new address when it changes', async () => {
    const view = render(<QrCode text="otpauth://totp/a?secret=AAAA" label="QR" />);
    const svg = screen.getByRole('img', { name: 'QR' });
    await waitFor(() => expect(svg).toHaveAttribute('data-modules'));
    const before = svg.innerHTML;
    view.rerender(<QrCode text={ADDRESS} label="QR" />);
    await waitFor(() =>
      expect(svg).toHaveAttribute('data-modules', String(create(ADDRESS).modules.size)),
    );
    expect(svg.innerHTML).not.toBe(before);
  });

  it('merges each row’s dark modules into runs', () => {
    const rows = ['1101', '0000', '1111', '0110'];
    const matrix = { size: 4, isDark: (r: number, c: number) => rows[r]![c] === '1' };
    expect(darkRuns(matrix)).toEqual([
      [0, 0, 2],
      [0, 3, 1],
      [2, 0, 4],
      [3, 1, 2],
    ]);
  });
});
