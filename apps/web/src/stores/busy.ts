import { create } from 'zustand';

interface Busy {
  /** Calls under way that the person waits for (a submit, a login), each holding the screen still. */
  count: number;
  /** Marks one call under way; the returned function ends it, once however often it is called. */
  begin: () => () => void;
}

/** Whether the screen waits for a call the person made: drawn by BusyOverlay, counted by the API client. */
export const useBusy = create<Busy>()((set) => ({
  count: 0,
  begin: () => {
    set(({ count }) => ({ count: count + 1 }));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      set(({ count }) => ({ count: count - 1 }));
    };
  },
}));
