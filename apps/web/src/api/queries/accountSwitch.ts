import { ApiPath, ResponseCode, type DemoSessionView } from '@pipwise/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession, type HeldSession } from '../../stores/session';
import { ApiError, http } from '../http';
import type { UserView } from '../types';
import { accountKeys } from './account';

/** A demo account with only its own session has no real one to switch to: the person logs in instead. */
export class RealAccountNeeded extends Error {}

/** The kept session, when it still answers (a logout elsewhere or its expiry ends it). */
async function stillLive(kept: HeldSession): Promise<HeldSession | null> {
  try {
    const user = await http.get<UserView>(ApiPath.userInfo, undefined, { token: kept.token, silent: true, initial: true });
    return { token: kept.token, user };
  } catch (error) {
    if (error instanceof ApiError && error.code === ResponseCode.notLoggedIn) return null;
    throw error;
  }
}

/**
 * The signed-in real account's demo account (docs/api.md demo_switch): the device's demo key is sent so
 * that the demo account it used before signing in becomes this person's; when the server no longer
 * knows it, or it is someone else's, the device forgets it and the account's own is opened.
 */
async function ownDemo(): Promise<HeldSession> {
  const saved = useSession.getState().demo;
  const send = (key?: { demo_id: string; demo_secret: string }) =>
    http.post<DemoSessionView>(ApiPath.switchToDemo, key ?? {}, { loading: true, silent: Boolean(key) });
  let session: DemoSessionView;
  try {
    session = await send(saved ? { demo_id: saved.id, demo_secret: saved.secret } : undefined);
  } catch (error) {
    const notThisDevicesAnyMore =
      saved && error instanceof ApiError && [ResponseCode.notFound, ResponseCode.forbidden].some((code) => code === error.code);
    if (!notThisDevicesAnyMore) throw error;
    useSession.getState().rememberDemo(null);
    session = await send();
  }
  if (session.demo_secret) useSession.getState().rememberDemo({ id: String(session.user.uid), secret: session.demo_secret });
  return { token: session.token, user: session.user };
}

/**
 * One tap between a person's real and demo accounts, never a logout: the session in use is kept beside
 * the other, and what was fetched for one account is dropped before the other's is shown.
 */
export function useSwitchAccountMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<HeldSession> => {
      const { user, kept } = useSession.getState();
      const demo = user?.is_demo === 1;
      if (kept && (kept.user.is_demo === 1) !== demo) {
        const live = await stillLive(kept);
        if (live) return live;
        useSession.getState().dropKept();
      }
      if (demo) throw new RealAccountNeeded();
      return ownDemo();
    },
    onSuccess: (session) => {
      client.clear();
      // The user query of the session now in use starts from the answer just read, not from a refetch.
      client.setQueryData([...accountKeys.user(), session.token], session.user);
      useSession.getState().switchTo(session);
    },
  });
}
