import { useCallback, useState } from 'react';

/**
 * The active option of a combobox's listbox, moved by the arrow keys (decision 0053). The
 * active option belongs to one list: `listKey` names it (the results of one query, or the
 * recent searches), and a new list starts with none active. The arrows wrap around: down
 * from none goes to the first option, up from none to the last.
 */
export function useActiveOption(optionCount: number, listKey: string) {
  const [state, setState] = useState({ listKey, index: -1 });
  const activeIndex = state.listKey === listKey && state.index < optionCount ? state.index : -1;
  const move = useCallback(
    (step: 1 | -1) => {
      if (optionCount === 0) return;
      let next: number;
      if (activeIndex < 0) next = step > 0 ? 0 : optionCount - 1;
      else next = (activeIndex + step + optionCount) % optionCount;
      setState({ listKey, index: next });
    },
    [activeIndex, listKey, optionCount],
  );
  const clear = useCallback(() => setState({ listKey, index: -1 }), [listKey]);
  return { activeIndex, move, clear };
}
