import { describe, expect, it } from 'vitest';
import { depositAmounts } from './amounts';

describe('deposit amounts', () => {
  it('shows what was credited, with the declared amount beside it when it differs', () => {
    expect(depositAmounts({ number: 500, credited_number: 450 })).toEqual({ shown: 450, declared: 500 });
  });

  it('shows one amount when the credit matches the declaration, or before anything is credited', () => {
    expect(depositAmounts({ number: 500, credited_number: 500 })).toEqual({ shown: 500, declared: null });
    expect(depositAmounts({ number: 500, credited_number: null })).toEqual({ shown: 500, declared: null });
  });
});
