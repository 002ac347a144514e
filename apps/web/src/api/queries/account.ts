import { ApiPath } from '@pipwise/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';
import type { AccountFigures, Balance, ForexTradePush, UserView } from '../types';
import { STALE_SHORT } from './staleTimes';

export const accountKeys = {
  all: ['account'] as const,
  user: () => [...accountKeys.all, 'user'] as const,
  money: () => [...accountKeys.all, 'money'] as const,
  balance: () => [...accountKeys.money(), 'balance'] as const,
  figures: () => [...accountKeys.money(), 'figures'] as const,
  /** The latest FOREX_TRADE push: floating P&L, used margin, risk rate. Written by the socket only. */
  live: () => [...accountKeys.all, 'live'] as const,
};

/** Refreshes the signed-in user; silent and "initial" so a stale token just signs out quietly (docs/api.md). */
export function useUserInfoQuery() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...accountKeys.user(), token],
    queryFn: async () => {
      const user = await http.get<UserView>(ApiPath.userInfo, undefined, { silent: true, initial: true });
      useSession.getState().setUser(user);
      return user;
    },
    enabled: Boolean(token),
    staleTime: STALE_SHORT,
    retry: false,
  });
}

export function useBalanceQuery(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: accountKeys.balance(),
    queryFn: () => http.get<Balance>(ApiPath.getBalance),
    enabled: enabled && Boolean(token),
    staleTime: STALE_SHORT,
  });
}

/** Balance, equity, margins and risk (forexDetail); the live push overrides the moving parts. */
export function useAccountFiguresQuery() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: accountKeys.figures(),
    queryFn: () => http.get<AccountFigures>(ApiPath.forexDetail),
    enabled: Boolean(token),
    staleTime: STALE_SHORT,
  });
}

export function useLiveAccountQuery() {
  const client = useQueryClient();
  return useQuery<ForexTradePush | null>({
    queryKey: accountKeys.live(),
    queryFn: () => client.getQueryData<ForexTradePush>(accountKeys.live()) ?? null,
    staleTime: Infinity,
  });
}
