import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: invite codes are read aloud and typed by hand. */
const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_LENGTH = 8;

export const newInviteCode = () =>
  Array.from({ length: INVITE_CODE_LENGTH }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');

/** Public 8-digit uid; random so it reveals neither the user count nor the sign-up order. */
export const newUid = () => randomInt(10_000_000, 100_000_000);

/** Six digits, uniformly drawn. */
export const newVerificationCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
