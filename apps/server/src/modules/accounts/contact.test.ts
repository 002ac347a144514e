import { describe, expect, it } from 'vitest';
import { maskedName } from './contact.js';

describe('public names', () => {
  it.each([
    [{ email: 'trader@example.com', phone: null }, 'tr***@example.com'],
    [{ email: 'ab@example.com', phone: null }, 'a***@example.com'],
    [{ email: 'a@example.com', phone: null }, '***@example.com'],
    [{ email: null, phone: '91234567' }, '***4567'],
    [{ email: null, phone: null }, '***'],
  ])('%o shows as %s', (contact, name) => {
    expect(maskedName(contact)).toBe(name);
  });
});
