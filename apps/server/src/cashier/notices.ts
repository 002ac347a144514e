import { SocketTopic, type WalletNoticeView } from '@pipwise/domain';
import type { EventBus } from '../realtime/bus.js';

/**
 * After the cashier committed a change of a user's money: the risk engine, which keeps balances in
 * memory, reads the account again (`trading.changed`), and the user's open apps hear which record moved
 * (`WALLET`), so the balance, the locked money and the records on screen update without a reload.
 */
export function announceWalletChange(bus: EventBus, userId: number, notice: WalletNoticeView) {
  bus.publish('trading.changed', { userId });
  bus.publish('realtime.user', { userId, topic: SocketTopic.wallet, data: notice });
}
