import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface ScreenFrameProps {
  children: ReactNode;
  /** Drawn above the scroll container (Screen's top bar). */
  top?: ReactNode;
  /** Tab screens leave room for the footer tab bar. */
  withTabBar?: boolean;
  className?: string;
}

/**
 * One scroll container per screen, so a kept-alive tab screen gets its own scroll position back when it
 * is shown again (a hidden Activity loses its layout, and with it the scroll offset).
 */
export function ScreenFrame({ children, top, withTabBar, className }: ScreenFrameProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const offset = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    // Setting scrollTop lays the page out there and then: a screen drawn for the first time (or left at the
    // top) is at 0 already, and its first layout waits for the browser's frame instead of lengthening the render.
    if (element && offset.current > 0) element.scrollTop = offset.current;
  }, []);

  return (
    <div className={`screen${withTabBar ? ' screen-tabbed' : ''}${className ? ` ${className}` : ''}`}>
      {top}
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
