import { AppError } from '@pipwise/domain';
import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import { operatorRoutes } from './routes.js';
import { OperatorsService, type OperatorEnrolment } from './service.js';

/** The first superadmin's address when the database has no operator yet. */
export const FIRST_OPERATOR_EMAIL = 'admin@localhost';
/** Marks the enrolment line on the console, so scripts (and the e2e suite) can read it. */
export const ENROLMENT_MARK = 'OPERATOR ENROLMENT';

export function createOperatorsModule(deps: CoreDeps, { audit }: { audit: AuditService }) {
  const service = new OperatorsService({ db: deps.database.db, clock: deps.clock, config: deps.config, audit });
  const module: Module = {
    name: 'operators',
    routes: operatorRoutes(service),
  };
  return { module, service };
}

/**
 * As Jenkins prints its first password: with no operator yet, makes the first superadmin and hands its
 * one-time enrolment to `print` (the console, from main.ts), so `npm start` alone leads to a working
 * back office. Answers null when an operator exists, or another process made the first one meanwhile.
 */
export async function enrolFirstOperator(
  operators: OperatorsService,
  print: (line: string) => void,
): Promise<OperatorEnrolment | null> {
  if ((await operators.count()) > 0) return null;
  try {
    const enrolment = await operators.add({ email: FIRST_OPERATOR_EMAIL, role: 'superadmin' }, { actor: 'system' });
    print(
      `\nNo operator exists yet. Sign in to the back office at /admin/ with this one-time enrolment (add the otpauth URI to an authenticator app); it is not shown again:\n${ENROLMENT_MARK} ${JSON.stringify(enrolment)}\n`,
    );
    return enrolment;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return null;
  }
}
