import { ApiPath, type RealNameView, type TRealNameRequest } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';
import { STALE_SHORT } from './staleTimes';

export const identityKeys = {
  all: ['identity'] as const,
  center: () => [...identityKeys.all, 'center'] as const,
};

/** The user's real-name status (`user_real/center`); the user center's badge reads it too. */
export function useRealNameQuery(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: identityKeys.center(),
    queryFn: () => http.get<RealNameView>(ApiPath.realNameCenter),
    enabled: enabled && Boolean(token),
    staleTime: STALE_SHORT,
  });
}

/**
 * Sends the form. A second submission is refused by the server while one is under review, so a
 * repeated tap cannot file two; the answer is the new status, shown at once.
 */
export function useSubmitRealNameMutation() {
  const client = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (request: TRealNameRequest) => http.post<RealNameView>(ApiPath.realName, request, { loading: true }),
    onSuccess: (view) => client.setQueryData(identityKeys.center(), view),
  });
}
