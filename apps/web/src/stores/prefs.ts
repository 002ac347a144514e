import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface TradePrefs {
  /** The pair shown on the trade screen (docs/api.md: current pair in session storage). */
  pairId: number | null;
  setPairId: (id: number) => void;
}

export const useTradePrefs = create<TradePrefs>()(
  persist((set) => ({ pairId: null, setPairId: (pairId) => set({ pairId }) }), {
    name: 'pipwise.trade',
    storage: createJSONStorage(() => sessionStorage),
  }),
);

interface ViewPrefs {
  /** The user card hides the balance until asked (docs/api.md). */
  balanceVisible: boolean;
  toggleBalance: () => void;
}

export const useViewPrefs = create<ViewPrefs>()((set) => ({
  balanceVisible: false,
  toggleBalance: () => set((state) => ({ balanceVisible: !state.balanceVisible })),
}));
