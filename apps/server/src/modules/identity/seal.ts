import { seal, unseal } from '../../sealing.js';

/** The user id is bound into the seal, so a number copied onto another user's row will not open. */
const boundTo = (userId: number) => `real-name:${userId}`;

export const sealCardId = (key: Buffer, userId: number, cardId: string) => seal(key, boundTo(userId), cardId);

export const openCardId = (key: Buffer, userId: number, sealed: string) => unseal(key, boundTo(userId), sealed);
