import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { UserView } from '../api/types';

/** What lets this device back into its demo account: the uid is public, the secret only this device has. */
export interface DemoKey {
  id: string;
  secret: string;
}

/** A signed-in session: its token and whose it is. */
export interface HeldSession {
  token: string;
  user: UserView;
}

interface SessionState {
  token: string | null;
  user: UserView | null;
  demo: DemoKey | null;
  /**
   * The same person's other session (their real account's while they use its demo account, or the
   * reverse), kept live so that one tap switches back without a login.
   */
  kept: HeldSession | null;
  signIn: (token: string, user: UserView) => void;
  /** Uses `session` from now on and keeps the one in use as `kept`. */
  switchTo: (session: HeldSession) => void;
  dropKept: () => void;
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
      kept: null,
      signIn: (token, user) => set({ token, user, kept: null }),
      switchTo: (session) =>
        set((state) => ({ ...session, kept: state.token && state.user ? { token: state.token, user: state.user } : null })),
      dropKept: () => set({ kept: null }),
      setUser: (user) => set({ user }),
      rememberDemo: (demo) => set({ demo }),
      signOut: () => set({ token: null, user: null, kept: null }),
    }),
    { name: 'pipwise.session' },
  ),
);
