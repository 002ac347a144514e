import { describe, expect, it } from 'vitest';
import { ZMyDealQuery, ZOrderIdRequest, ZSetStopPriceRequest, ZSubmitOrderRequest } from './trading.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

const market = { type: 1, cont: '0.01', forex_id: 3, status: 1, multiple: 100 };

describe('submit payload', () => {
  it('accepts JSON numbers and form strings alike and keeps lots as exact text', () => {
    const json = ZSubmitOrderRequest.parse({ ...market, cont: 0.1 });
    expect(json.cont).toBe('0.1');
    const form = ZSubmitOrderRequest.parse({
      type: '2',
      cont: '1.25',
      forex_id: '3',
      status: '0',
      target_price: '1.0835',
      stop_loss_price: '0',
      target_profit_price: '',
      multiple: '50',
    });
    expect(form).toMatchObject({ type: 2, cont: '1.25', status: 0, target_price: '1.0835', multiple: 50 });
    expect(form.stop_loss_price).toBeUndefined();
    expect(form.target_profit_price).toBeUndefined();
  });

  it.each([
    [{ cont: 'abc' }, 'lots_invalid'],
    [{ cont: '-1' }, 'lots_invalid'],
    [{ cont: 0 }, 'lots_invalid'],
    [{ cont: '0.00001' }, 'lots_invalid'],
    [{ cont: '1e3' }, 'lots_invalid'],
    [{ cont: '1000000.01' }, 'lots_invalid'],
    [{ cont: 1e21 }, 'lots_invalid'],
    [{ cont: [1] }, 'lots_invalid'],
    [{ type: 3 }, 'side_invalid'],
    [{ type: 'buy' }, 'side_invalid'],
    [{ status: 2 }, 'order_kind_invalid'],
    [{ forex_id: -1 }, 'instrument_invalid'],
    [{ forex_id: 'x' }, 'instrument_invalid'],
    [{ multiple: 0 }, 'leverage_invalid'],
    [{ multiple: 1.5 }, 'leverage_invalid'],
    [{ stop_loss_price: '-1' }, 'stop_loss_invalid'],
    [{ target_profit_price: 'NaN' }, 'take_profit_invalid'],
    [{ status: 0 }, 'target_price_required'],
    [{ status: 0, target_price: '1.2.3' }, 'target_price_invalid'],
  ])('rejects %j with %s', (patch, key) => {
    expect(firstMessage(ZSubmitOrderRequest.safeParse({ ...market, ...patch }))).toBe(key);
  });
});

describe('other trading payloads', () => {
  it('order ids are positive integers', () => {
    expect(ZOrderIdRequest.parse({ id: '12' }).id).toBe(12);
    expect(firstMessage(ZOrderIdRequest.safeParse({ id: '0' }))).toBe('order_id_invalid');
    expect(firstMessage(ZOrderIdRequest.safeParse({}))).toBe('order_id_invalid');
  });

  it('set_stop_price removes a level given as 0 and checks the others', () => {
    expect(ZSetStopPriceRequest.parse({ id: 1, target_profit_price: '1.3', stop_loss_price: 0 })).toEqual({
      id: 1,
      target_profit_price: '1.3',
    });
    expect(firstMessage(ZSetStopPriceRequest.safeParse({ id: 1, stop_loss_price: 'x' }))).toBe('stop_loss_invalid');
  });

  it('my_deal defaults to holding, page 1, and refuses other statuses', () => {
    expect(ZMyDealQuery.parse({})).toEqual({ status: 1, page: 1 });
    expect(ZMyDealQuery.parse({ status: '3', page: '2' })).toEqual({ status: 3, page: 2 });
    expect(firstMessage(ZMyDealQuery.safeParse({ status: '2' }))).toBe('order_status_invalid');
  });
});
