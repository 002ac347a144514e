import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * antd-mobile draws Toast and Dialog through a render function of its own, which for React 19 must be set
 * (setAntdRender.ts) before the first one opens. Setting it brings antd-mobile's legacy renderer along, which
 * the first screen needs only for a toast, so it loads with the first toast and with every other screen instead.
 */
export const loadAntdRender = () => import('./setAntdRender');

/** A screen drawn from a chunk of its own; `preload` starts downloading it before it is drawn. */
export type LazyScreen<T extends ComponentType = ComponentType> = LazyExoticComponent<T> & { preload: () => Promise<unknown> };

/** A lazy screen that may open a Toast or Dialog: its chunk and antd-mobile's render load together. */
export function lazyScreen<T extends ComponentType>(load: () => Promise<{ default: T }>): LazyScreen<T> {
  const loadWithRender = () => Promise.all([load(), loadAntdRender()]).then(([module]) => module);
  // The browser fetches a module once: a preload and the lazy component's own import share the download.
  return Object.assign(lazy(loadWithRender), { preload: loadWithRender });
}
