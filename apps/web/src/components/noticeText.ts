import type { TFunction } from 'i18next';
import type { AccountNotice } from '../api/types';
import { formatLots, formatNumber } from '../i18n/format';

/** Reasons that close a position (the notice states its P&L). */
const CLOSES = new Set(['take_profit', 'stop_loss', 'stop_out']);

export interface NoticeText {
  title: string;
  detail: string;
  /** The closed position's P&L as stored with it, or null. */
  profit: number | null;
  /** Colour of the notice: a stop-out and a margin call warn, the rest inform. */
  tone: 'warn' | 'info';
}

/** What an account notice says, in the reader's language, from the figures stored with it. */
export function noticeText(t: TFunction, notice: AccountNotice): NoticeText {
  if (notice.kind === 'margin_call') {
    return {
      title: t('notices.margin_call'),
      detail: t('notices.margin_call_text', {
        level: formatNumber(notice.margin_level, 2),
        stop_out: formatNumber(notice.stop_out_level, 2),
      }),
      profit: null,
      tone: 'warn',
    };
  }
  const reason = notice.reason ?? '';
  const params = {
    side: t(notice.side === 1 ? 'order.buy' : 'order.sell'),
    code: notice.code ?? '',
    lots: t('order.lots_value', { count: notice.lots ?? 0, lots: formatLots(notice.lots) }),
    price: formatNumber(notice.price, notice.precision ?? 5),
  };
  const closes = CLOSES.has(reason);
  return {
    title: t(`notices.reason_${reason}`),
    detail: t(closes ? 'notices.closed' : reason === 'filled' ? 'notices.opened' : 'notices.at_price', params),
    profit: closes ? notice.profit : null,
    tone: reason === 'stop_out' ? 'warn' : 'info',
  };
}
