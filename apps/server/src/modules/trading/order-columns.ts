import { OrderStatus, type FillDirection, type OrderSideValue } from '@pipwise/domain';
import { grow } from './exposure.js';
import { IdIndex } from './id-index.js';
import type { WatchedOrder } from './watch.js';

/** What a slot's level columns hold where the order has no such level. */
const NO_LEVEL = Number.NaN;
export const NO_SLOT = -1;
const FILL_CODES: (FillDirection | null)[] = [null, 'rise', 'fall'];

/**
 * A decimal text with at most 15 significant digits comes back from a double unchanged (as the same
 * value); one with more is kept as text beside the columns, so what the pushes read stays exact.
 */
const fitsADouble = (text: string) =>
  // Sixteen characters with a point hold at most 15 digits: the usual case, told without a scan.
  (text.length <= 16 && text.includes('.')) ||
  text.length <= 15 ||
  text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length <= 15;

/**
 * Every order the risk engine watches, in parallel typed arrays addressed by a reusable slot: no object,
 * string or map entry per order (a million orders were 544 bytes each as objects); the slot of an order id
 * is found through a typed-array index over the id column.
 * The orders of one account are a doubly linked list through `next`/`previous`.
 */
export class OrderColumns {
  id = new Float64Array(64);
  userId = new Float64Array(64);
  instrumentId = new Int32Array(64);
  side = new Uint8Array(64);
  status = new Uint8Array(64);
  fill = new Uint8Array(64);
  lots = new Int32Array(64);
  margin = new Float64Array(64);
  openPrice = new Float64Array(64);
  contractSize = new Float64Array(64);
  targetPrice = new Float64Array(64);
  takeProfit = new Float64Array(64);
  stopLoss = new Float64Array(64);
  next = new Int32Array(64);
  previous = new Int32Array(64);
  private readonly slotOf = new IdIndex((slot) => this.id[slot]!);
  /** Lot sizes repeat across orders: each distinct text is kept once. */
  private readonly lotTexts: string[] = [];
  private readonly lotValues: number[] = [];
  private readonly lotIndex = new Map<string, number>();
  /** The few margins and entries a double would not give back exactly, by slot. */
  private readonly exactTexts = new Map<number, { margin?: string; openPrice?: string | null }>();
  private top = 0;
  private readonly free: number[] = [];

  get size() {
    return this.slotOf.size;
  }

  slotOfOrder(orderId: number): number | undefined {
    return this.slotOf.get(orderId);
  }

  /** Stores the order in a free slot, at the head of the list that starts at `head`; returns the slot. */
  store(order: WatchedOrder, head: number): number {
    const slot = this.free.pop() ?? this.top++;
    if (slot >= this.id.length) this.grow(this.id.length * 2);
    this.id[slot] = order.id;
    this.slotOf.set(order.id, slot);
    this.userId[slot] = order.userId;
    this.instrumentId[slot] = order.instrumentId;
    this.side[slot] = order.side;
    this.status[slot] = order.status;
    this.fill[slot] = order.fillDirection === null ? 0 : FILL_CODES.indexOf(order.fillDirection);
    this.lots[slot] = this.lotCode(order.lots);
    this.margin[slot] = Number(order.margin);
    this.openPrice[slot] = order.openPrice === null ? NO_LEVEL : Number(order.openPrice);
    this.contractSize[slot] = order.contractSize;
    this.targetPrice[slot] = order.targetPrice ?? NO_LEVEL;
    this.takeProfit[slot] = order.takeProfit ?? NO_LEVEL;
    this.stopLoss[slot] = order.stopLoss ?? NO_LEVEL;
    const marginExact = fitsADouble(order.margin);
    const openExact = order.openPrice === null || fitsADouble(order.openPrice);
    if (!marginExact || !openExact)
      this.exactTexts.set(slot, {
        ...(marginExact ? {} : { margin: order.margin }),
        ...(openExact ? {} : { openPrice: order.openPrice }),
      });
    this.previous[slot] = NO_SLOT;
    this.next[slot] = head;
    if (head !== NO_SLOT) this.previous[head] = slot;
    return slot;
  }

  /** Frees the slot and unlinks it; returns the head of its list after the removal. */
  release(slot: number, head: number): number {
    const before = this.previous[slot]!;
    const after = this.next[slot]!;
    if (before !== NO_SLOT) this.next[before] = after;
    if (after !== NO_SLOT) this.previous[after] = before;
    this.slotOf.delete(this.id[slot]!);
    this.exactTexts.delete(slot);
    this.free.push(slot);
    return head === slot ? after : head;
  }

  /** The slots of a list, from its head. */
  *list(head: number): Generator<number> {
    for (let slot = head; slot !== NO_SLOT; slot = this.next[slot]!) yield slot;
  }

  holding(slot: number) {
    return this.status[slot] === OrderStatus.holding && !Number.isNaN(this.openPrice[slot]!);
  }

  lotsOf(slot: number): string {
    return this.lotTexts[this.lots[slot]!]!;
  }

  lotsValue(slot: number): number {
    return this.lotValues[this.lots[slot]!]!;
  }

  fillDirection(slot: number): FillDirection | null {
    return FILL_CODES[this.fill[slot]!] ?? null;
  }

  /** The order as it was stored (decimal texts compare equal as values, not always as strings). */
  read(slot: number): WatchedOrder {
    const exact = this.exactTexts.get(slot);
    const open = this.openPrice[slot]!;
    const level = (value: number) => (Number.isNaN(value) ? null : value);
    return {
      id: this.id[slot]!,
      userId: this.userId[slot]!,
      instrumentId: this.instrumentId[slot]!,
      side: this.side[slot] as OrderSideValue,
      status: this.status[slot] as WatchedOrder['status'],
      lots: this.lotsOf(slot),
      margin: exact?.margin ?? String(this.margin[slot]),
      openPrice: exact?.openPrice !== undefined ? exact.openPrice : Number.isNaN(open) ? null : String(open),
      contractSize: this.contractSize[slot]!,
      targetPrice: level(this.targetPrice[slot]!),
      fillDirection: this.fillDirection(slot),
      takeProfit: level(this.takeProfit[slot]!),
      stopLoss: level(this.stopLoss[slot]!),
    };
  }

  private lotCode(text: string) {
    let code = this.lotIndex.get(text);
    if (code === undefined) {
      code = this.lotTexts.push(text) - 1;
      this.lotValues.push(Number(text));
      this.lotIndex.set(text, code);
    }
    return code;
  }

  private grow(capacity: number) {
    this.id = grow(this.id, capacity);
    this.userId = grow(this.userId, capacity);
    this.instrumentId = grow(this.instrumentId, capacity);
    this.side = grow(this.side, capacity);
    this.status = grow(this.status, capacity);
    this.fill = grow(this.fill, capacity);
    this.lots = grow(this.lots, capacity);
    this.margin = grow(this.margin, capacity);
    this.openPrice = grow(this.openPrice, capacity);
    this.contractSize = grow(this.contractSize, capacity);
    this.targetPrice = grow(this.targetPrice, capacity);
    this.takeProfit = grow(this.takeProfit, capacity);
    this.stopLoss = grow(this.stopLoss, capacity);
    this.next = grow(this.next, capacity);
    this.previous = grow(this.previous, capacity);
  }
}
