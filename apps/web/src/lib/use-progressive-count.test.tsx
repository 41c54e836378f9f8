import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PROGRESSIVE_FIRST, useProgressiveCount } from './use-progressive-count';

describe('useProgressiveCount', () => {
  it('renders a short list whole at once', () => {
    const { result } = renderHook(() => useProgressiveCount(12));
    expect(result.current).toBe(12);
  });

  it('renders the first items at once and the rest in later steps', async () => {
    const counts: number[] = [];
    const { result } = renderHook(() => {
      const count = useProgressiveCount(500);
      counts.push(count);
      return count;
    });
    expect(counts[0]).toBe(PROGRESSIVE_FIRST);
    await waitFor(() => expect(result.current).toBe(500));
    const distinct = [...new Set(counts)];
    expect(distinct.length).toBeGreaterThan(2);
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
  });

  it('follows a list that shrinks, and one that grows again', async () => {
    const { result, rerender } = renderHook(({ total }) => useProgressiveCount(total, 5, 5), {
      initialProps: { total: 20 },
    });
    await waitFor(() => expect(result.current).toBe(20));
    rerender({ total: 3 });
    expect(result.current).toBe(3);
    rerender({ total: 30 });
    await waitFor(() => expect(result.current).toBe(30));
  });
});
