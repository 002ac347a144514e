import type { OperatorRole } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pathId, requireSomeChange } from './admin-input.js';
import { ok, parse } from './envelope.js';
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

/**
 * `path` for `role`: GET the list (its query checked by `query` when given), POST a new one, PUT `/:id`
 * a change of at least one field and, where the service removes, DELETE `/:id`.
 */
export function registerAdminCrud<Query extends z.ZodType, Create extends z.ZodType, Change extends z.ZodType, Row, List>(
  app: FastifyInstance,
  path: string,
  role: OperatorRole,
  options: { query?: Query; create: Create; change: Change; notFoundKey: string },
  admin: AdminCrud<Query, Create, Change, Row, List>,
) {
  app.get(path, async (request) => {
    requireOperator(request);
    return ok(request, await admin.list((options.query ? parse(options.query, request.query) : undefined) as z.output<Query>));
  });

  app.post(path, async (request) => {
    const operator = requireOperator(request);
    return ok(request, await admin.create(parse(options.create, request.body), operator, request.ip));
  });

  app.put(`${path}/:id`, async (request) => {
    const operator = requireOperator(request);
    const id = pathId(request.params, options.notFoundKey);
    const change = requireSomeChange(parse(options.change, request.body) as object) as z.output<Change>;
    return ok(request, await admin.update(id, change, operator, request.ip));
  });

  const remove = admin.remove?.bind(admin);
  if (remove) {
    app.delete(`${path}/:id`, async (request) => {
      const operator = requireOperator(request);
      await remove(pathId(request.params, options.notFoundKey), operator, request.ip);
      return ok(request, null);
    });
  }
}
