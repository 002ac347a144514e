import { ApiPath } from '@pipwise/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';
import type { UserView } from '../types';
import { accountKeys } from './account';

/** Accepts the risk disclosure version shown; the answer is the user, no longer due. */
export function useAcceptDisclosureMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => http.post<UserView>(ApiPath.acceptRiskDisclosure, { version }, { loading: true }),
    onSuccess: (user) => {
      useSession.getState().setUser(user);
      void client.invalidateQueries({ queryKey: accountKeys.user() });
    },
  });
}
