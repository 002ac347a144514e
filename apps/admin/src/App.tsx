import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import Login from './pages/Login';
import { useSession } from './session';

/** What sign-in does not show loads after it: the frame with its menu, and the enrolment page. */
const Shell = lazy(() => import('./Shell'));
const Enrol = lazy(() => import('./pages/Enrol'));

export function App() {
  const { operator, loading } = useSession();
  const location = useLocation();
  if (loading) return <Spin fullscreen />;
  // An enrolment link opens its page whoever is signed in: the link is for the operator it names.
  if (location.pathname.startsWith('/enrol/')) {
    return (
      <Suspense fallback={<Spin fullscreen />}>
        <Enrol token={location.pathname.slice('/enrol/'.length)} />
      </Suspense>
    );
  }
  if (!operator)
    return (
      <Suspense fallback={<Spin fullscreen />}>
        <Login />
      </Suspense>
    );
  return (
    <Suspense fallback={<Spin fullscreen />}>
      <Shell />
    </Suspense>
  );
}
