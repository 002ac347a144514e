import { dec, entryPrice, margin, OrderSide, roundBalance, roundProfit, tradeFee, type OrderSideValue } from '@pipwise/domain';
import type { TradePair } from '../../api/types';

export function quoteOf(pair: TradePair) {
  const quote = pair.ForexQuotations;
  const bid = quote?.Bid ?? quote?.Close ?? 0;
  const ask = quote?.Ask ?? bid;
  return { bid, ask };
}

/**
 * The order form's margin and fee, computed by the same domain functions the server charges with
 * (DESIGN §2), at the price the order would open at.
 */
export function estimateOrder(input: {
  pair: TradePair;
  /** The whole trade list, for the quote-currency conversion. */
  pairs: TradePair[];
  lots: number;
  leverage: number;
  feeType: number;
  side?: OrderSideValue;
}) {
  const { pair, lots, leverage, feeType } = input;
  if (!lots || !leverage) return null;
  const price = entryPrice(input.side ?? OrderSide.buy, quoteOf(pair));
  const marginValue = margin({
    lots,
    contractSize: pair.ForexContNum,
    marginMode: pair.MarginMode,
    price,
    leverage,
    usdRate: usdRate(pair, input.pairs),
  });
  const fee = tradeFee({ feeType, lots, feeRate: pair.ForexFeeRate, margin: marginValue });
  return { margin: roundProfit(marginValue).toNumber(), fee: roundBalance(fee).toNumber() };
}

/**
 * USD per unit of the pair's quote currency, from the quotes at hand, as the server converts: 1 for USD,
 * the bid of XXXUSD, or 1 ÷ the bid of USDXXX. Six-letter codes are currency pairs quoted in their last
 * three letters; other instruments are taken as USD-quoted unless the server names their currency.
 */
export function usdRate(pair: TradePair, pairs: TradePair[]) {
  const currency = pair.QuoteCurrency ?? (/^[A-Z]{6}$/.test(pair.Code) ? pair.Code.slice(3) : 'USD');
  if (currency === 'USD') return dec(1);
  const direct = pairs.find((candidate) => candidate.Code === `${currency}USD`);
  if (direct) return dec(quoteOf(direct).bid);
  const inverse = pairs.find((candidate) => candidate.Code === `USD${currency}`);
  if (inverse && quoteOf(inverse).bid) return dec(1).dividedBy(quoteOf(inverse).bid);
  return dec(1);
}

/** Decimals of a step such as 0.01 → 2, so the stepper shows exactly the lots it will send. */
export function decimalsOf(step: number) {
  const text = String(step);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}
