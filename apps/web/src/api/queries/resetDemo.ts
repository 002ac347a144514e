import { ApiPath } from '@pipwise/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http';
import { accountKeys } from './account';
import { orderKeys } from './orderKeys';

/** Apart from the account's queries, which the shell reads on every screen: only the user center resets a demo. */
export function useResetDemoMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => http.get<unknown>(ApiPath.resetDemo, undefined, { loading: true }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: accountKeys.all }),
        client.invalidateQueries({ queryKey: orderKeys.all }),
      ]),
  });
}
