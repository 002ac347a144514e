import type { OperatorRole, SignedInOperatorView } from '@pipwise/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { adminApi, operatorToken, setSignedOutHandler } from './api';

interface Session {
  operator: SignedInOperatorView | null;
  loading: boolean;
  signIn: (token: string) => void;
  signOut: () => Promise<void>;
  /** Whether the operator's role may use something open to `roles` (superadmin may use everything). */
  may: (roles: readonly OperatorRole[]) => boolean;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(operatorToken.get());
  const me = useQuery({
    queryKey: ['me', token],
    queryFn: () => adminApi<SignedInOperatorView>('GET', '/me'),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });

  useEffect(() => {
    setSignedOutHandler(() => {
      setToken(null);
      queryClient.clear();
    });
  }, [queryClient]);

  const signIn = useCallback((next: string) => {
    operatorToken.set(next);
    setToken(next);
  }, []);

  const signOut = useCallback(async () => {
    await adminApi('POST', '/logout').catch(() => undefined);
    operatorToken.clear();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  const operator = token ? (me.data ?? null) : null;
  const value = useMemo<Session>(
    () => ({
      operator,
      loading: token !== null && me.isPending,
      signIn,
      signOut,
      may: (roles) => operator !== null && (operator.role === 'superadmin' || roles.includes(operator.role)),
    }),
    [operator, token, me.isPending, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
