import { create } from 'zustand';
import type { AccountNotice } from '../api/types';

/** Toasts at once on screen; an older one gives way (it stays in the list under the bell). */
const MAX_SHOWN = 3;

interface NoticeToasts {
  /** Newest last. */
  shown: AccountNotice[];
  show: (notice: AccountNotice) => void;
  dismiss: (id: number) => void;
}

/** The account notices pushed while the app is open (NOTICE), shown as toasts on whatever screen is up. */
export const useNoticeToasts = create<NoticeToasts>()((set) => ({
  shown: [],
  show: (notice) =>
    set(({ shown }) =>
      shown.some((item) => item.id === notice.id) ? { shown } : { shown: [...shown, notice].slice(-MAX_SHOWN) },
    ),
  dismiss: (id) => set(({ shown }) => ({ shown: shown.filter((item) => item.id !== id) })),
}));
