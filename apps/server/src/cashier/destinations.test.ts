import { AppError } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { coinAddress } from './destinations.js';

describe('coinAddress', () => {
  it('refuses a protocol named after a property of Object.prototype as an invalid address', () => {
    for (const protocol of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => coinAddress(protocol, 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'), protocol).toThrow(AppError);
    }
  });

  it('accepts a valid address of a known protocol', () => {
    expect(coinAddress('TRC20', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL').address).toBe('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
  });
});
