import type { OperatorRole } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pathId, requireSomeChange } from './admin-input.js';
import { ok, parse } from './envelope.js';
import { answers } from './openapi.js';
import { requireOperator, type OperatorPrincipal } from './operator.js';

/**
 * What the operators' side of an editable list does; the service audits each change in its transaction.
 * `Row` is the domain's view of one entry, `List` what the list answers (rows, or a page of them).
 */
export interface AdminCrud<Query extends z.ZodType, Create extends z.ZodType, Change extends z.ZodType, Row, List> {
  list(query: z.output<Query>): Promise<List>;
  create(input: z.output<Create>, by: OperatorPrincipal, ip: string): Promise<Row>;
  update(id: number, change: z.output<Change>, by: OperatorPrincipal, ip: string): Promise<Row>;
  /** Lists without it take no DELETE. */
  remove?(id: number, by: OperatorPrincipal, ip: string): Promise<void>;
}

/** The path parameter of one entry; documentation only, `pathId` reads it (anything else is "not found"). */
export const ZEntryParams = z.object({ id: z.string().regex(/^\d+$/) });

/**
 * `path` for `role`: GET the list (its query checked by `query` when given), POST a new one, PUT `/:id`
 * a change of at least one field and, where the service removes, DELETE `/:id`. `row` and `list` describe
 * the answers in the OpenAPI document.
 */
export function registerAdminCrud<
  Query extends z.ZodType,
  Create extends z.ZodType,
  Change extends z.ZodType,
  Row extends z.ZodType,
  List extends z.ZodType,
>(
  app: FastifyInstance,
  path: string,
  role: OperatorRole,
  options: { query?: Query; create: Create; change: Change; row: Row; list: List; notFoundKey: string },
  admin: AdminCrud<Query, Create, Change, z.output<Row>, z.output<List>>,
) {
  const row = answers(options.row);
  app.get(
    path,
    { schema: { ...(options.query && { querystring: options.query }), response: answers(options.list) } },
    async (request) => {
      requireOperator(request);
      return ok(request, await admin.list((options.query ? parse(options.query, request.query) : undefined) as z.output<Query>));
    },
  );

  app.post(path, { schema: { body: options.create, response: row } }, async (request) => {
    const operator = requireOperator(request);
    return ok(request, await admin.create(parse(options.create, request.body), operator, request.ip));
  });

  app.put(`${path}/:id`, { schema: { params: ZEntryParams, body: options.change, response: row } }, async (request) => {
    const operator = requireOperator(request);
    const id = pathId(request.params, options.notFoundKey);
    const change = requireSomeChange(parse(options.change, request.body) as object) as z.output<Change>;
    return ok(request, await admin.update(id, change, operator, request.ip));
  });

  const remove = admin.remove?.bind(admin);
  if (remove) {
    const removed = { params: ZEntryParams, response: answers(z.null()) };
    app.delete(`${path}/:id`, { schema: removed }, async (request) => {
      const operator = requireOperator(request);
      await remove(pathId(request.params, options.notFoundKey), operator, request.ip);
      return ok(request, null);
    });
  }
}
