import { ApiPath, type InviteInfoView } from '@pipwise/domain';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';

export const inviteKeys = {
  info: () => ['invite', 'info'] as const,
};

/** The invite code and how many registered with it; always refetched on return, so a new sign-up shows. */
export function useInviteInfoQuery() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...inviteKeys.info(), token],
    queryFn: () => http.get<InviteInfoView>(ApiPath.inviteInfo),
    enabled: Boolean(token),
    staleTime: 0,
  });
}
