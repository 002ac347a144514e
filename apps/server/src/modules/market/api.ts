import type { Dec } from '@pipwise/domain';

/**
 * What the market module offers the rest of the server (trading, engine). Other modules use this
 * service and the `market.quote` bus event, never the market tables.
 */
export interface InstrumentInfo {
  id: number;
  code: string;
  showCode: string;
  name: string;
  logo: string;
  categoryId: number;
  baseCurrency: string;
  quoteCurrency: string;
  pricePrecision: number;
  /** Lot step (the spec's Pip). */
  lotStep: Dec;
  minLots: Dec;
  maxLots: Dec;
  /** Units of the base per lot (the spec's ForexContNum). */
  contractSize: Dec;
  feeRate: Dec;
  /** 1: fixed margin per lot; otherwise notional ÷ leverage. */
  marginMode: number;
  leverages: number[];
  spread: Dec;
  session: string;
  /**
   * Offered to new orders and shown in lists. A disabled instrument keeps its quotes, so positions
   * already open on it can still be valued and closed.
   */
  enabled: boolean;
}

/** The current quote of an instrument; decimals as strings so nothing passes through a float. */
export interface Quote {
  instrumentId: number;
  code: string;
  bid: string;
  ask: string;
  open: string;
  high: string;
  low: string;
  /** 24-hour change in percent. */
  changePct: string;
  volume: string;
  /** Milliseconds since the epoch, from the market clock. */
  time: number;
  /** Whether the instrument's session is open at `time`. */
  marketOpen: boolean;
}

export interface MarketService {
  /** Every instrument, disabled ones included (their positions still need them). */
  listInstruments(): InstrumentInfo[];
  getInstrument(id: number): InstrumentInfo | undefined;
  getInstrumentByCode(code: string): InstrumentInfo | undefined;
  getQuote(instrumentId: number): Quote | undefined;
  /**
   * The quote only when a tick set it: after a restart the table starts from the last stored bar's
   * close, which may be older than the crashed process's last ticks, so nothing acts on it.
   */
  getTickedQuote(instrumentId: number): Quote | undefined;
  /** Whether the instrument's trading session is open at `at` (default: the market clock's now). */
  isOpen(instrumentId: number, at?: Date): boolean;
  /** USD per one unit of `currency` at the current quotes (exactly 1 for USD). */
  usdRate(currency: string): Dec;
}

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** Every tick of every instrument, after the quote table was updated. */
    'market.quote': Quote;
    /** An operator changed an instrument: every process reads its parameters again, in place. */
    'market.instrument_changed': { id: number };
    /** An operator changed the categories: every process reads them again. */
    'market.categories_changed': Record<string, never>;
  }
}
