import sharp from 'sharp';
import { api, approverToken, baseURL, operatorToken, type Envelope, type RealAccount } from './support.js';

/*
 * Money in and out of e2e accounts the way the product moves it: the user declares a deposit with a
 * proof image through the API, and an operator decides it through the operator API (which the back
 * office will put screens on). Nothing here writes to the database.
 */

async function operatorRequest<T>(token: string, route: string, body: Record<string, unknown>, method: string): Promise<T> {
  const response = await fetch(`${baseURL()}${route}`, {
    method,
    headers: {
      lang: 'en',
      authorization: `Bearer ${token}`,
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 1) throw new Error(`${route}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Which of the setup's two superadmins asks for a change and which approves it (and is handed its result). */
export interface SuperadminTurns {
  asks: () => string;
  approves: () => string;
}
const FIRST_ASKS: SuperadminTurns = { asks: operatorToken, approves: approverToken };
/** The turns reversed: a new operator's enrolment link is then handed to the first superadmin. */
export const APPROVER_ASKS: SuperadminTurns = { asks: approverToken, approves: operatorToken };

/**
 * Calls the back-office API as the server's superadmin (signed in once by the global setup). A change that
 * waits for a second superadmin (a setting that weakens a control, a new operator, a raised role) is
 * approved at once by the setup's second superadmin, and the approval's answer (a new operator's
 * enrolment link) is answered instead.
 */
export async function asOperator<T>(
  route: string,
  body: Record<string, unknown> = {},
  method = 'POST',
  superadmins: SuperadminTurns = FIRST_ASKS,
): Promise<T> {
  const data = await operatorRequest<T | { pending_change: { id: number } }>(superadmins.asks(), route, body, method);
  if (typeof data !== 'object' || data === null || !('pending_change' in data)) return data;
  const approved = await operatorRequest<{ result: T }>(
    superadmins.approves(),
    `/admin/api/changes/${data.pending_change.id}/approve`,
    {},
    'POST',
  );
  return approved.result;
}

/** A small PNG, different on every call (a payment proof or an ID photo as a phone would take it). */
export async function proofImage(label = 'proof'): Promise<Buffer> {
  const shade = Math.floor(Math.random() * 200);
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 120, b: 80 } } })
    .png()
    .withMetadata({ exif: { IFD0: { ImageDescription: label } } })
    .toBuffer();
}

/** Uploads an image as the user; answers its id and signed URL. */
export async function upload(token: string, image: Buffer): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'proof.png');
  const response = await fetch(`${baseURL()}/api/common/image_upload`, {
    method: 'POST',
    headers: { lang: 'en', authorization: token },
    body: form,
  });
  const envelope = (await response.json()) as Envelope<{ id: string; url: string }>;
  if (envelope.code !== 1) throw new Error(`image_upload: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

interface WireChannel {
  id: number;
  currency_code: string;
  min_amount: number;
  max_amount: number;
}

/** A bank wire declared by the user with its proof, waiting for an operator: its id. */
export async function declareWire(token: string, amount: string): Promise<number> {
  const channels = await api<WireChannel[]>('/api/quickCharge/wire_info', token);
  const channel = channels.find((candidate) => candidate.min_amount <= Number(amount) && Number(amount) <= candidate.max_amount);
  if (!channel) throw new Error(`no wire channel takes ${amount}`);
  const proof = await upload(token, await proofImage());
  const deposit = await api<{ id: number }>('/api/quickCharge/wire_submit', token, {
    method: 'POST',
    body: { number: amount, proofImg: proof.id, wire_id: channel.id },
  });
  return deposit.id;
}

/**
 * Funds a real account as a user would: a bank wire declared with its proof, then finished by an
 * operator, who credits it (ledger row and balance in one transaction, on the server).
 */
export async function fundThroughDeposit(token: string, amount: string): Promise<void> {
  await asOperator(`/admin/api/deposits/${await declareWire(token, amount)}/approve`);
}

/** Identity verified as the product does it: the user submits both sides of an ID, an operator approves. */
export async function verifyIdentity(account: RealAccount): Promise<void> {
  const front = await upload(account.token, await proofImage('front'));
  const back = await upload(account.token, await proofImage('back'));
  await api('/api/user_real/real_name', account.token, {
    method: 'POST',
    body: { name: 'Chan Tai Man', card_id: `A${Date.now() % 10_000_000}`, front_pic: front.id, reverse_pic: back.id },
  });
  await asOperator(`/admin/api/kyc/${account.user.id}/approve`);
}

/** Changes one server setting through the operator API (say, a short payout cool-down for a journey). */
export const setSetting = (key: string, value: string) => asOperator('/admin/api/settings', { [key]: value });
