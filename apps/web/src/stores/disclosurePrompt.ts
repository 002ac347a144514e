import { create } from 'zustand';

/**
 * Whether the updated risk disclosure is put off for now ("Later"): it comes back when an order is
 * refused for it, and with the next start of the app.
 */
export const useDisclosurePrompt = create<{ postponed: boolean; postpone: () => void; ask: () => void }>()((set) => ({
  postponed: false,
  postpone: () => set({ postponed: true }),
  ask: () => set({ postponed: false }),
}));
