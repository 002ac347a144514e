import { randomUUID } from 'node:crypto';
import { invalid, type CaptchaView } from '@pipwise/domain';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { captchas } from '../../db/schema.js';

export const CAPTCHA_TTL_MS = 5 * 60_000;

export interface GeneratedCaptcha {
  /** The answer. */
  text: string;
  /** The image, an SVG document. */
  svg: string;
}

export type CaptchaGenerator = () => GeneratedCaptcha;

/** Four characters without look-alikes, a little noise: readable by people, costly for OCR. */
export const svgCaptchaGenerator: CaptchaGenerator = () => {
  const { text, data } = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: false });
  return { text, svg: data };
};

/**
 * Image captchas: the answer is stored only as a keyed hash; each captcha answers once (right or wrong)
 * and expires after five minutes.
 */
export class CaptchaService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly generate: CaptchaGenerator,
    private readonly hash: (value: string) => Promise<string>,
  ) {}

  async issue(): Promise<CaptchaView> {
    const { text, svg } = this.generate();
    const id = randomUUID();
    const now = this.clock.now();
    await this.db.insert(captchas).values({
      id,
      answerHash: await this.hash(text.toLowerCase()),
      expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS),
    });
    // Expired captchas have no further purpose; sweeping them on issue keeps the table at a few minutes' worth.
    await this.db.delete(captchas).where(lt(captchas.expiresAt, now));
    return { id, b64s: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Uses the captcha up whatever the answer, so one image cannot be guessed at repeatedly. */
  async verify(id: string | undefined, answer: string | undefined): Promise<void> {
    if (!id || !answer) throw invalid('captcha_required');
    const now = this.clock.now();
    const [row] = await this.db
      .update(captchas)
      .set({ usedAt: now })
      .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
      .returning({ answerHash: captchas.answerHash });
    if (!row || row.answerHash !== (await this.hash(answer.trim().toLowerCase()))) throw invalid('captcha_incorrect');
  }
}
