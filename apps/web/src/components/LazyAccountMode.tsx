import { lazy, Suspense } from 'react';
import { useSession } from '../stores/session';

const AccountMode = lazy(() => import('./AccountMode'));

/** The account mode and its switch, loaded after the screen's own code, for a signed-in person only. */
export function LazyAccountMode() {
  const signedIn = useSession((state) => Boolean(state.token));
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <AccountMode />
    </Suspense>
  );
}
