import type { OperatorRole } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { auditLog } from '../src/db/schema.js';
import { enrolOperator, ManualClock, totpCode, type TestServer } from './harness.js';

export interface TestOperator {
  id: number;
  email: string;
  role: OperatorRole;
  password: string;
  otpauth: string;
}

let sequence = 0;

/**
 * An operator made straight through the service (as the first start and the command line do) and
 * enrolled through its one-time link; `madeBy` is the operator who made it and was handed the link.
 */
export async function newOperator(
  server: TestServer,
  role: OperatorRole = 'support',
  name?: string,
  madeBy?: { id: number; email: string },
): Promise<TestOperator> {
  sequence += 1;
  const email = `${name ?? `op${sequence}`}@ops.test`;
  return enrolOperator(server.ctx, server.clock, {
    email,
    role,
    ...(madeBy ? { createdBy: `operator:${madeBy.email}`, createdById: madeBy.id, enrolledById: madeBy.id } : {}),
  });
}

/** POST /admin/api/login; the code is the one the authenticator shows at `at` (default: the server's clock). */
export function login(
  server: TestServer,
  operator: Pick<TestOperator, 'email' | 'password' | 'otpauth'>,
  options: { at?: number; otp?: string; password?: string; ip?: string } = {},
) {
  const otp = options.otp ?? totpCode(operator.otpauth, options.at ?? server.clock.now().getTime());
  return server.call<{ token: string; operator: { id: number; email: string; role: string } }>('POST', '/admin/api/login', {
    body: { email: operator.email, password: options.password ?? operator.password, otp },
    headers: options.ip ? { 'x-forwarded-for': options.ip } : {},
  });
}

/**
 * Logs in and answers the headers of the new session. A manual clock is first moved on by one TOTP step,
 * so each sign-in has a code not used before (a code is accepted once).
 */
export async function signIn(server: TestServer, operator: TestOperator, ip?: string) {
  if (server.clock instanceof ManualClock) server.clock.advance(30_000);
  const result = await login(server, operator, ip ? { ip } : {});
  if (result.code !== 1) throw new Error(`login failed: ${result.code} ${result.msg}`);
  return { authorization: result.data.token };
}

export const auditRows = (server: TestServer, action: string) =>
  server.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
