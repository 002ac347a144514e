import { describe, expect, it } from 'vitest';
import { Paths } from '../../routing/paths';
import { inviteLink } from './inviteLink';

describe('inviteLink', () => {
  it('opens the register screen with the code where the register screen reads it', () => {
    const link = new URL(inviteLink('AB2CD3EF', 'https://app.example.com'));
    expect(link.origin).toBe('https://app.example.com');
    const route = new URL(link.hash.slice(1), link.origin);
    expect(route.pathname).toBe(Paths.register);
    expect(route.searchParams.get('invite_code')).toBe('AB2CD3EF');
  });

  it('keeps a code with URL characters intact', () => {
    const route = new URL(new URL(inviteLink('a&b=c', 'http://localhost:5173')).hash.slice(1), 'http://x');
    expect(route.searchParams.get('invite_code')).toBe('a&b=c');
  });
});
