import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { UserView } from '../api/types';

/** What lets this device back into its demo account: the uid is public, the secret only this device has. */
export interface DemoKey {
  id: string;
  secret: string;
}

interface SessionState {
  token: string | null;
  user: UserView | null;
  demo: DemoKey | null;
  signIn: (token: string, user: UserView) => void;
  setUser: (user: UserView) => void;
  /** Kept across logouts, so "Try a demo account" returns to the same demo account. */
  rememberDemo: (demo: DemoKey | null) => void;
  signOut: () => void;
}

/** The signed-in user survives reloads (docs/api.md: user state in local storage). */
export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      user: null,
      demo: null,
      signIn: (token, user) => set({ token, user }),
      setUser: (user) => set({ user }),
      rememberDemo: (demo) => set({ demo }),
      signOut: () => set({ token: null, user: null }),
    }),
    { name: 'pipwise.session' },
  ),
);
