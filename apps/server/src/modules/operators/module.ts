import { AppError } from '@pipwise/domain';
import type { CoreDeps, Module } from '../../context.js';
import type { CaptchaService } from '../accounts/captcha.js';
import type { AuditService } from '../audit/service.js';
import { ApprovalsService } from './approvals.js';
import { FourEyes } from './four-eyes.js';
import { operatorRoutes } from './routes.js';
import { OperatorsService, type OperatorEnrolment } from './service.js';

/** The first superadmin's address when the database has no operator yet. */
export const FIRST_OPERATOR_EMAIL = 'admin@localhost';
/** Marks the enrolment line on the console, so scripts (and the e2e suite) can read it. */
export const ENROLMENT_MARK = 'OPERATOR ENROLMENT';

/** The captcha is the accounts' (one step-up for users and operators), handed over once that module exists. */
export type Captcha = Pick<CaptchaService, 'issue' | 'verify'>;

export function createOperatorsModule(deps: CoreDeps, { audit, captcha }: { audit: AuditService; captcha: Captcha }) {
  const { db } = deps.database;
  const fourEyes = new FourEyes(db);
  const approvals = new ApprovalsService({ db, clock: deps.clock, audit, fourEyes });
  const service = new OperatorsService({ db, clock: deps.clock, config: deps.config, audit, captcha, approvals });
  service.registerChangeKinds(approvals);
  const module: Module = {
    name: 'operators',
    routes: operatorRoutes(service, approvals, captcha),
  };
  return { module, service, approvals, fourEyes };
}

/**
 * As Jenkins prints its first password: with no operator yet, makes the first superadmin and hands its
 * one-time enrolment link to `print` (the console, from main.ts), so `npm start` alone leads to a working
 * back office. Until that superadmin has enrolled, a start after its link expired prints a fresh one, so
 * an unused link never locks the owner out (`npm run operator -- reset --email admin@localhost` prints
 * one at any time). Answers null when there is nothing to print, or another process made the first one
 * meanwhile.
 */
export async function enrolFirstOperator(
  operators: OperatorsService,
  print: (line: string) => void,
  /** The server's own address as its console can tell it (`http://localhost:8080`), before the link's path. */
  origin = '',
): Promise<OperatorEnrolment | null> {
  try {
    let enrolment: OperatorEnrolment;
    if ((await operators.count()) === 0) {
      const added = await operators.add({ email: FIRST_OPERATOR_EMAIL, role: 'superadmin' }, { actor: 'system' });
      if ('pending' in added) return null;
      enrolment = added;
    } else {
      const first = await operators.waitingFirstOperator(FIRST_OPERATOR_EMAIL);
      if (first === null) return null;
      enrolment = await operators.reset(first, { actor: 'system' });
    }
    print(
      `\nNo operator has enrolled yet. Open this one-time link (${origin}${enrolment.link}, at the address the back office is served from) to set the password of ${enrolment.email} and add its code to an authenticator app; it expires at ${enrolment.expires_at}, and a start after that prints a new one until it is used:\n${ENROLMENT_MARK} ${JSON.stringify(enrolment)}\n`,
    );
    return enrolment;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return null;
  }
}
