import { ZCoinDepositRequest, ZWireDepositRequest } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { depositErrors } from './validation';

const PROOF = 'AbCdEfGhIjKlMnOpQrStUv';
const CHANNEL = { min_amount: 10, max_amount: 5000 };
/** Echoes the key and its values, so a test sees which message was chosen and with what. */
const t = (keys: string | string[], values?: Record<string, string>) =>
  `${Array.isArray(keys) ? keys[0] : keys}${values ? JSON.stringify(values) : ''}`;
const format = (value: number) => value.toFixed(2);
const coin = (number: string, proofImg = PROOF) =>
  depositErrors(ZCoinDepositRequest, { number, proofImg, charge_id: 3 } as { number: string }, CHANNEL, t, format);

describe('deposit form checks', () => {
  it('accepts an amount within the channel limits with a proof', () => {
    expect(coin('10')).toEqual({});
    expect(coin('5000.00')).toEqual({});
  });

  it('says the amount is required when it is empty, and invalid when it is not a cashier amount', () => {
    expect(coin(' ').amount).toBe('charge.amount_required');
    expect(coin('12.345').amount).toBe('charge.amount_invalid');
    expect(coin('-5').amount).toBe('charge.amount_invalid');
    expect(coin('1e3').amount).toBe('charge.amount_invalid');
  });

  it('holds the amount to the channel limits exactly, without floats', () => {
    expect(coin('9.99').amount).toBe('charge.amount_below_min{"min":"10.00"}');
    expect(coin('5000.01').amount).toBe('charge.amount_above_max{"max":"5000.00"}');
  });

  it('asks for the proof image', () => {
    expect(coin('100', '')).toEqual({ proof: 'charge.proof_required' });
  });

  it('names the wire form fields the same way', () => {
    const errors = depositErrors(
      ZWireDepositRequest,
      { number: '', proofImg: '', wire_id: 0 } as { number: string },
      CHANNEL,
      t,
      format,
    );
    expect(errors).toEqual({
      amount: 'charge.amount_required',
      proof: 'charge.proof_required',
      channel: 'charge.channel_invalid',
    });
  });
});
