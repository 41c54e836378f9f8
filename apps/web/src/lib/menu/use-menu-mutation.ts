import {
  useMutation,
  useQueryClient,
  type UseMutationOptions,
  type UseMutationResult,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../use-session';
import { menuQueryKey } from './get-menu';

/** What a write's hook accepts besides its call, as in `useMutation`'s options. */
export type MenuMutationConfig<TVariables, TData = void> = Omit<
  UseMutationOptions<TData, Error, TVariables>,
  'mutationFn'
>;

/**
 * A write on the menu: the mutation (its `error` is the server's, an ApiError) and `write`,
 * which resolves true on success and false on failure so callers can react (spec §8). A
 * write that answers with more than its success has it as `TData` (an import's result).
 */
export type MenuMutation<TVariables, TData = void> = UseMutationResult<TData, Error, TVariables> & {
  write: (variables: TVariables) => Promise<boolean>;
};

/**
 * A mutation that reloads the menu after it succeeded (spec §4), before it settles: a panel
 * closed on success never shows the menu as it was before the write.
 */
export function useMenuMutation<TVariables, TData = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  { onSuccess, ...config }: MenuMutationConfig<TVariables, TData> = {},
): MenuMutation<TVariables, TData> {
  const queryClient = useQueryClient();
  const { token } = useSession();
  const mutation = useMutation<TData, Error, TVariables>({
    ...config,
    mutationFn,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: menuQueryKey(token) });
      await onSuccess?.(...args);
    },
  });
  const { mutateAsync } = mutation;
  const write = useCallback(
    (variables: TVariables) =>
      mutateAsync(variables).then(
        () => true,
        () => false,
      ),
    [mutateAsync],
  );
  return { ...mutation, write };
}
