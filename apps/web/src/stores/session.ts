import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { UserView } from '../api/types';

interface SessionState {
  token: string | null;
  user: UserView | null;
  signIn: (token: string, user: UserView) => void;
  setUser: (user: UserView) => void;
  signOut: () => void;
}

/** The signed-in user survives reloads (spec §9: user state in local storage). */
export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      user: null,
      signIn: (token, user) => set({ token, user }),
      setUser: (user) => set({ user }),
      signOut: () => set({ token: null, user: null }),
    }),
    { name: 'pipwise.session' },
  ),
);

export const getToken = () => useSession.getState().token;
