import {
  ApiPath,
  RealNameStatus,
  ResponseCode,
  type IdentityCardIdView,
  type IdentityReviewListView,
  type IdentityReviewView,
  type RealNameView,
  type UploadView,
} from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { realNameRecords } from '../src/db/schema.js';
import { translate } from '../src/i18n/catalog.js';
import { openCardId } from '../src/modules/identity/seal.js';
import { deriveKey } from '../src/secret.js';
import { createTrader, expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const CARD_ID = '110101199003071234';
const en = (key: string, params?: Record<string, string>) => translate('en', key, params);

/** Identity through real HTTP: documents uploaded through `image_upload`, reviewed through the operator API. */
describe.each(DB_KINDS)('identity on %s', (kind) => {
  let server: TestServer;
  let shade = 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const trader = (isDemo = false) => createTrader(server.database.db, { isDemo });

  /** A real image, different each time, uploaded by `user`; answers its id and signed URL. */
  async function upload(user: Trader): Promise<UploadView> {
    shade += 1;
    const png = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: shade % 256, g: 80, b: 160 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'card.png');
    const response = await fetch(server.baseUrl + ApiPath.imageUpload, {
      method: 'POST',
      headers: { authorization: user.token },
      body: form,
    });
    const answer = (await response.json()) as { code: number; data: UploadView };
    expect(answer.code).toBe(ResponseCode.ok);
    return answer.data;
  }

  async function documents(user: Trader) {
    const [front, reverse] = [await upload(user), await upload(user)];
    return { front, reverse, body: { name: 'Chan Tai Man', card_id: CARD_ID, front_pic: front.id, reverse_pic: reverse.id } };
  }

  const submit = (user: Trader, body: Record<string, unknown>, lang = 'en') =>
    server.call<RealNameView>('POST', ApiPath.realName, { token: user.token, body, lang });
  const center = (user: Trader) => server.call<RealNameView>('GET', ApiPath.realNameCenter, { token: user.token });
  const operator = (name = 'alice') => server.operatorHeaders(name, 'compliance');
  const approve = async (user: Trader, name?: string) =>
    server.call<IdentityReviewView>('POST', `/admin/api/kyc/${user.userId}/approve`, { headers: await operator(name), body: {} });
  const reject = async (user: Trader, reason: unknown, name?: string) =>
    server.call<IdentityReviewView>('POST', `/admin/api/kyc/${user.userId}/reject`, {
      headers: await operator(name),
      body: { reason },
    });
  const record = async (user: Trader) =>
    (await server.database.db.select().from(realNameRecords).where(eq(realNameRecords.userId, user.userId)))[0];

  it('takes a submission under review, shows the number masked, and verifies it on approval', async () => {
    const user = await trader();
    expect((await center(user)).data).toEqual({
      review_status: RealNameStatus.none,
      name: null,
      card_id: null,
      front_pic: null,
      reverse_pic: null,
      reason: null,
    });

    const { front, body } = await documents(user);
    const submitted = await submit(user, { ...body, card_id: ' 1101-0119 9003 071234 ' });
    expect(submitted).toMatchObject({
      code: ResponseCode.ok,
      msg: en('real_name_submitted'),
      data: { review_status: 1, card_id: '****1234' },
    });

    const shown = (await center(user)).data;
    expect(shown).toMatchObject({ review_status: 1, name: 'Chan Tai Man', card_id: '****1234', reason: null });
    expect(shown.front_pic).toMatch(new RegExp(`^/api/common/upload/${front.id}\\?expires=\\d+&sig=`));
    const image = await fetch(server.baseUrl + shown.front_pic!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect(await server.ctx.identity.isVerified(user.userId)).toBe(false);

    const queue = await server.call<IdentityReviewListView>('GET', '/admin/api/kyc?status=1', { headers: await operator() });
    expect(queue.data.data.map((item) => item.user_id)).toContain(user.userId);
    const audit = vi.spyOn(server.ctx.log, 'info');
    const revealed = await server.call<IdentityCardIdView>('GET', `/admin/api/kyc/${user.userId}/card_id`, {
      headers: await operator(),
    });
    expect(revealed.data).toEqual({ user_id: user.userId, card_id: CARD_ID });
    // Each reveal is logged with who asked, and the log never holds the number itself.
    const reveals = audit.mock.calls.filter((call: unknown[]) => call[1] === 'identity card id revealed');
    expect(reveals).toEqual([[{ userId: user.userId, operator: 'operator:alice@ops.test' }, 'identity card id revealed']]);
    audit.mockRestore();

    const approved = await approve(user, 'bob');
    expect(approved).toMatchObject({
      code: ResponseCode.ok,
      msg: en('identity_approved'),
      data: { review_status: 2, reviewed_by: 'operator:bob@ops.test' },
    });
    expect((await center(user)).data).toMatchObject({ review_status: RealNameStatus.verified, card_id: '****1234' });
    expect(await server.ctx.identity.isVerified(user.userId)).toBe(true);

    const again = await documents(user);
    expect(await submit(user, again.body)).toMatchObject({ code: ResponseCode.conflict, msg: en('identity_already_verified') });
    expect(await approve(user)).toMatchObject({ code: ResponseCode.conflict, msg: en('identity_not_under_review') });
    expect((await record(user))?.frontUploadId).toBe(front.id);
  });

  it('keeps the ID number sealed at rest, readable only with the key and for its own user', async () => {
    const user = await trader();
    const { body } = await documents(user);
    await submit(user, body);
    const row = await record(user);
    const sealed = row!.cardIdSealed;
    expect(sealed).not.toContain(CARD_ID);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain(CARD_ID);
    expect(row!.cardIdLast4).toBe('1234');

    const key = deriveKey(server.config, 'identity-documents');
    expect(openCardId(key, user.userId, sealed)).toBe(CARD_ID);
    expect(() => openCardId(key, user.userId + 1, sealed)).toThrow();
    expect(() => openCardId(deriveKey(server.config, 'upload-links'), user.userId, sealed)).toThrow();

    // The same number sealed twice never gives the same text (fresh iv each time).
    await reject(user, 'Resubmit please');
    const second = await documents(user);
    await submit(user, second.body);
    expect((await record(user))!.cardIdSealed).not.toBe(sealed);
  });

  it('sends a submission back with the reason, then takes a resubmission (form body, URLs as references)', async () => {
    const user = await trader();
    const first = await documents(user);
    await submit(user, first.body);

    expect(await reject(user, '   ')).toMatchObject({ code: ResponseCode.invalidInput, msg: en('reject_reason_required') });
    expect((await center(user)).data.review_status).toBe(RealNameStatus.underReview);

    const rejected = await reject(user, 'The back photo is blurred');
    expect(rejected).toMatchObject({ code: ResponseCode.ok, msg: en('identity_rejected'), data: { review_status: 0 } });
    expect((await center(user)).data).toMatchObject({
      review_status: 0,
      reason: 'The back photo is blurred',
      card_id: '****1234',
    });
    expect(await server.ctx.identity.isVerified(user.userId)).toBe(false);
    expect(await reject(user, 'twice')).toMatchObject({ code: ResponseCode.conflict, msg: en('identity_not_under_review') });

    const second = await documents(user);
    const resubmitted = await server.call<RealNameView>('POST', ApiPath.realName, {
      token: user.token,
      form: { name: 'Chan Tai-man', card_id: 'K1234567', front_pic: second.front.url, reverse_pic: second.reverse.url },
    });
    expect(resubmitted).toMatchObject({
      code: ResponseCode.ok,
      data: { review_status: 1, name: 'Chan Tai-man', card_id: '****4567', reason: null },
    });
    const row = await record(user);
    expect(row).toMatchObject({
      frontUploadId: second.front.id,
      reverseUploadId: second.reverse.id,
      reason: null,
      reviewedBy: null,
    });
  });

  describe('refuses bad input with its message and changes nothing', () => {
    let user: Trader;
    let valid: Record<string, unknown>;
    let strangersUpload: string;

    beforeAll(async () => {
      user = await trader();
      valid = (await documents(user)).body;
      strangersUpload = (await upload(await trader())).id;
    });

    const cases: [string, () => Record<string, unknown>, string, Record<string, string>?][] = [
      ['no name', () => ({ ...valid, name: undefined }), 'real_name_required'],
      ['a blank name', () => ({ ...valid, name: '   ' }), 'real_name_required'],
      ['no ID number', () => ({ ...valid, card_id: undefined }), 'card_id_required'],
      ['an ID number of separators only', () => ({ ...valid, card_id: ' - - ' }), 'card_id_required'],
      ['an ID number too short', () => ({ ...valid, card_id: '123' }), 'card_id_invalid'],
      ['an ID number with symbols', () => ({ ...valid, card_id: '1234<script>' }), 'card_id_invalid'],
      ['an ID number as a number', () => ({ ...valid, card_id: 12345678 }), 'card_id_required'],
      ['only the front image', () => ({ ...valid, reverse_pic: undefined }), 'reverse_pic_required'],
      ['only the back image', () => ({ ...valid, front_pic: '' }), 'front_pic_required'],
      [
        'two images for one side',
        () => ({ ...valid, reverse_pic: [valid.reverse_pic, valid.front_pic] }),
        'reverse_pic_required',
      ],
      ['a reference that is no upload', () => ({ ...valid, front_pic: 'https://evil.example/a.png' }), 'front_pic_required'],
      ['the same image twice', () => ({ ...valid, reverse_pic: valid.front_pic }), 'identity_pics_distinct'],
      ["another user's upload", () => ({ ...valid, reverse_pic: strangersUpload }), 'upload_invalid'],
      ['an unknown upload', () => ({ ...valid, reverse_pic: 'AAAAAAAAAAAAAAAAAAAAAA' }), 'upload_invalid'],
      ['a NUL byte in the name', () => ({ ...valid, name: 'Chan\u0000Tai' }), 'field_characters_invalid', { field: 'name' }],
      [
        'a NUL byte in the ID number',
        () => ({ ...valid, card_id: '1234\u00005678' }),
        'field_characters_invalid',
        { field: 'card_id' },
      ],
      ['a huge name', () => ({ ...valid, name: 'x'.repeat(100_000) }), 'field_too_long'],
      ['a huge ID number', () => ({ ...valid, card_id: '9'.repeat(100_000) }), 'field_too_long'],
      ['a huge image reference', () => ({ ...valid, front_pic: 'A'.repeat(100_000) }), 'field_too_long'],
    ];

    it.each(cases)('%s', async (_, body, key, params) => {
      const answer = await submit(user, body());
      expect(answer).toMatchObject({ status: 200, code: ResponseCode.invalidInput, msg: en(key, params) });
      expect(await record(user)).toBeUndefined();
    });

    it('says it in the reader’s language', async () => {
      const answer = await submit(user, { ...valid, name: '' }, 'hk');
      expect(answer.msg).toBe(translate('hk', 'real_name_required'));
      expect(answer.msg).not.toBe(en('real_name_required'));
    });

    it('answers a malformed body as bad input, not a failure', async () => {
      const response = await fetch(server.baseUrl + ApiPath.realName, {
        method: 'POST',
        headers: { authorization: user.token, 'content-type': 'application/json', lang: 'en' },
        body: '{"name":',
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { code: number }).code).toBe(ResponseCode.invalidInput);
      expect(await record(user)).toBeUndefined();
    });
  });

  it('refuses a resubmission while under review and keeps the first', async () => {
    const user = await trader();
    const first = await documents(user);
    await submit(user, first.body);
    const second = await documents(user);
    expect(await submit(user, { ...second.body, name: 'Someone Else' })).toMatchObject({
      code: ResponseCode.conflict,
      msg: en('identity_under_review'),
    });
    expect(await record(user)).toMatchObject({ name: 'Chan Tai Man', frontUploadId: first.front.id, reviewStatus: 1 });
  });

  it('refuses demo users and visitors', async () => {
    const demo = await trader(true);
    const someone = await trader();
    const { body } = await documents(someone);
    expect(await submit(demo, body)).toMatchObject({
      code: ResponseCode.forbidden,
      msg: 'Please register or log in to a real account',
    });
    expect(await center(demo)).toMatchObject({
      code: ResponseCode.forbidden,
      msg: 'Please register or log in to a real account',
    });
    expect(await record(demo)).toBeUndefined();
    expect(await server.call('POST', ApiPath.realName, { body })).toMatchObject({ code: ResponseCode.notLoggedIn });
    expect(await server.call('GET', ApiPath.realNameCenter)).toMatchObject({ code: ResponseCode.notLoggedIn });
  });

  it('keeps the operator API to operators and checks its input', async () => {
    const user = await trader();
    await submit(user, (await documents(user)).body);
    const paths = [
      ['GET', '/admin/api/kyc'],
      ['POST', `/admin/api/kyc/${user.userId}/approve`],
      ['POST', `/admin/api/kyc/${user.userId}/reject`],
      ['GET', `/admin/api/kyc/${user.userId}/card_id`],
    ] as const;
    const finance = await server.operatorHeaders('fin', 'finance');
    for (const [method, path] of paths) {
      // A user's own token, a guessed operator token, and an operator of another desk are all refused.
      expect(await server.call(method, path, { token: user.token }), path).toMatchObject({
        code: ResponseCode.notLoggedIn,
        msg: en('operator_not_logged_in'),
      });
      expect(await server.call(method, path, { headers: { authorization: 'Bearer pwo_guess' } }), path).toMatchObject({
        code: ResponseCode.notLoggedIn,
        msg: en('operator_not_logged_in'),
      });
      expect(await server.call(method, path, { headers: finance }), path).toMatchObject({
        code: ResponseCode.forbidden,
        msg: en('operator_role_forbidden'),
      });
    }
    expect((await record(user))?.reviewStatus).toBe(RealNameStatus.underReview);

    const stranger = { userId: 999_999_999, token: '' };
    expect(await approve(stranger)).toMatchObject({ code: ResponseCode.notFound, msg: en('identity_not_found') });
    expect(await server.call('GET', '/admin/api/kyc/abc/card_id', { headers: await operator() })).toMatchObject({
      code: ResponseCode.invalidInput,
    });
    expect(await server.call('GET', '/admin/api/kyc?status=7', { headers: await operator() })).toMatchObject({
      code: ResponseCode.invalidInput,
      msg: en('review_status_invalid'),
    });
  });

  it('lets exactly one of many concurrent decisions land', async () => {
    const user = await trader();
    await submit(user, (await documents(user)).body);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0 ? approve(user, `approver${i}`) : reject(user, `reason ${i}`, `rejecter${i}`),
      ),
    );
    const landed = answers.filter((answer) => answer.code === ResponseCode.ok);
    expect(landed).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === ResponseCode.conflict)).toHaveLength(7);

    const winner = landed[0]!.data;
    const row = await record(user);
    expect(row).toMatchObject({ reviewStatus: winner.review_status, reviewedBy: winner.reviewed_by, reason: winner.reason });
    expect(await server.ctx.identity.isVerified(user.userId)).toBe(winner.review_status === RealNameStatus.verified);
  });

  it('takes one of two concurrent submissions', async () => {
    const user = await trader();
    const [first, second] = [await documents(user), await documents(user)];
    const answers = await Promise.all([submit(user, first.body), submit(user, second.body)]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([ResponseCode.ok, ResponseCode.conflict]);
    const row = await record(user);
    const winner = answers[0].code === ResponseCode.ok ? first : second;
    expect(row).toMatchObject({ reviewStatus: 1, frontUploadId: winner.front.id });
  });
});
