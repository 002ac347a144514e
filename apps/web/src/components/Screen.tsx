import NavBar from 'antd-mobile/es/components/nav-bar';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router';

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
  /** A title shows a top bar; `back` adds the back arrow. */
  title?: ReactNode;
  back?: boolean;
  right?: ReactNode;
  /** Tab screens leave room for the footer tab bar. */
  withTabBar?: boolean;
  className?: string;
}

/**
 * One scroll container per screen, so a kept-alive tab screen gets its own scroll position back when it
 * is shown again (a hidden Activity loses its layout, and with it the scroll offset).
 */
export function Screen({ children, title, back, right, withTabBar, className }: ScreenProps) {
  const goBack = useGoBack();
  const scroller = useRef<HTMLDivElement>(null);
  const offset = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = offset.current;
  }, []);

  return (
    <div className={`screen${withTabBar ? ' screen-tabbed' : ''}${className ? ` ${className}` : ''}`}>
      {title !== undefined && (
        <NavBar className="screen-nav" back={back ? '' : null} onBack={goBack} right={right}>
          {title}
        </NavBar>
      )}
      <div
        className="screen-body"
        ref={scroller}
        onScroll={(event) => {
          offset.current = event.currentTarget.scrollTop;
        }}
      >
        {children}
      </div>
    </div>
  );
}
