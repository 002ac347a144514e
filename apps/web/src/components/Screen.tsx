import NavBar from 'antd-mobile/es/components/nav-bar';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LazyAccountMode } from './LazyAccountMode';
import { ScreenFrame } from './ScreenFrame';

/** React Router numbers its history entries; at 0 there is nothing of ours to go back to. */
const canGoBack = () => ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

/**
 * Back to the previous screen of this app, or home when the screen was opened directly: going back from
 * the first entry would leave the app (to about:blank or another site).
 */
export function useGoBack() {
  const navigate = useNavigate();
  return () => void (canGoBack() ? navigate(-1) : navigate('/', { replace: true }));
}

interface ScreenProps {
  children: ReactNode;
  /** A title shows a top bar; `back` adds the back arrow, and the account in use on the right unless `right` is given. */
  title?: ReactNode;
  back?: boolean;
  right?: ReactNode;
  withTabBar?: boolean;
  className?: string;
}

/** A screen, with a top bar when it has a title. The first screen has none: it uses ScreenFrame, without NavBar's code. */
export function Screen({ children, title, back, right, withTabBar, className }: ScreenProps) {
  const goBack = useGoBack();
  const nav = title !== undefined && (
    <NavBar className="screen-nav" back={back ? '' : null} onBack={goBack} right={right ?? (back && <LazyAccountMode />)}>
      {title}
    </NavBar>
  );
  return (
    <ScreenFrame top={nav} withTabBar={withTabBar} className={className}>
      {children}
    </ScreenFrame>
  );
}
