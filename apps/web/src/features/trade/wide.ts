import { useSyncExternalStore } from 'react';

/** Where the trade screen becomes a terminal (docs/architecture.md, "Desktop"). */
const wide = matchMedia('(min-width: 1024px)');

const subscribe = (onChange: () => void) => {
  wide.addEventListener('change', onChange);
  return () => wide.removeEventListener('change', onChange);
};

/** Whether the window is wide enough for the desktop trader, following resizes. */
export const useWideScreen = () => useSyncExternalStore(subscribe, () => wide.matches);
