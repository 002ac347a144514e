import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The associated data binds a sealed number to its user: copying one row's ciphertext into another
 * row fails to open instead of showing a stranger's number.
 */
const boundTo = (userId: number) => Buffer.from(`real-name:${userId}`);

/** AES-256-GCM with a fresh random iv: base64url of iv (12) | tag (16) | ciphertext. */
export function sealCardId(key: Buffer, userId: number, cardId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(boundTo(userId));
  const ciphertext = Buffer.concat([cipher.update(cardId, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** Opens what sealCardId made for the same user; throws when the key, user or bytes differ. */
export function openCardId(key: Buffer, userId: number, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(boundTo(userId));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
