import { z } from 'zod';
import { ResponseCode } from '../errors.js';

/** Every HTTP answer (docs/api.md): `code` 1 is success, any other is an error whose `msg` is localized. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** A success: `code` 1 and the route's answer in `data`. */
export interface SuccessEnvelope<T> extends Envelope<T> {
  code: typeof ResponseCode.ok;
}

/** A refusal, in any status: another code, a message in the request's language and no data. */
export const ZRefusal = z
  .object({
    code: z
      .number()
      .int()
      .describe(
        '999 not logged in, 1001 invalid input, 1002 rejected, 1003 forbidden, 1004 not found, 1009 conflict, 1429 too many requests, 1500 internal error',
      ),
    msg: z.string().describe("in the request's language"),
    data: z.null(),
  })
  .describe('A refusal');

/** What a route answers with status 200: its `data` on success, or a refusal (business and validation failures are 200 too). */
export const answerOf = <T extends z.ZodType>(data: T) =>
  z.union([z.object({ code: z.literal(ResponseCode.ok), msg: z.string(), data }).describe('Success'), ZRefusal]);
