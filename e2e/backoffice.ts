import type { EnrolmentStartView, OperatorEnrolmentView, OperatorRole } from '@pipwise/domain';
import * as OTPAuth from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APPROVER_ASKS, asOperator } from './cashier.js';
import { baseURL, freshAddress, type Envelope } from './support.js';

/*
 * Back-office journeys: operators of each role made by the server's superadmin through the API, and their
 * sign-in through the admin app's screens with a real TOTP code, as an authenticator app shows it.
 */

/** A new operator after they opened their enrolment link: the password they chose, their authenticator's secret. */
export interface OperatorEnrolment {
  email: string;
  role: OperatorRole;
  password: string;
  otpauth: string;
}

let made = 0;

/**
 * Opens an enrolment link as its operator would, through the API: a password of their own, and the code
 * of the secret it shows (a step then used, as `freshTotp` keeps track of).
 */
export async function enrolThroughLink(issued: OperatorEnrolmentView): Promise<OperatorEnrolment> {
  const token = issued.link.slice(issued.link.lastIndexOf('/') + 1);
  const begun = await operatorCall<EnrolmentStartView>('', 'POST', '/admin/api/enrolment/begin', { token });
  if (begun.code !== 1) throw new Error(`enrolment of ${issued.email}: ${begun.code} ${begun.msg}`);
  const password = `e2e-${made}-${Math.random().toString(36).slice(2)}-pass`;
  const otp = await freshTotp(begun.data.otpauth);
  const finished = await operatorCall('', 'POST', '/admin/api/enrolment/finish', { token, password, otp });
  if (finished.code !== 1) throw new Error(`enrolment of ${issued.email}: ${finished.code} ${finished.msg}`);
  return { email: issued.email, role: issued.role, password, otpauth: begun.data.otpauth };
}

/**
 * A new operator of `role` (a fresh address each call), asked for by one superadmin, approved by the
 * other (who is handed the link), and enrolled through the link. Four-eyes takes two operators whose
 * links one superadmin held for one person, so a maker and a checker come one from each superadmin:
 * `handedTo: 'first'` reverses the turns.
 */
export async function createOperator(
  role: OperatorRole,
  { handedTo }: { handedTo: 'approver' | 'first' } = { handedTo: 'approver' },
): Promise<OperatorEnrolment> {
  made += 1;
  const email = `e2e-${role}-${process.pid}-${Date.now()}-${made}@ops.example.com`;
  const turns = handedTo === 'first' ? APPROVER_ASKS : undefined;
  return enrolThroughLink(await asOperator<OperatorEnrolmentView>('/admin/api/operators', { email, role }, 'POST', turns));
}

const PERIOD_MS = 30_000;
/** The newest code step used per enrolment in this process: the server takes each step's code once. */
const lastStep = new Map<string, number>();

/**
 * A code for a step this operator has not used yet: the current step's, or, when this process already
 * used it, the next one's (waiting up to 30 s for it to begin).
 */
export async function freshTotp(otpauth: string): Promise<string> {
  const used = lastStep.get(otpauth);
  let step = Math.floor(Date.now() / PERIOD_MS);
  if (used !== undefined && step <= used) {
    step = used + 1;
    await new Promise((resolve) => setTimeout(resolve, step * PERIOD_MS - Date.now() + 50));
  }
  lastStep.set(otpauth, step);
  return (OTPAuth.URI.parse(otpauth) as OTPAuth.TOTP).generate({ timestamp: step * PERIOD_MS });
}

/** Signs in through the back office's login screen (English) and waits for its shell to name the operator. */
export async function signInToBackOffice(page: Page, operator: Pick<OperatorEnrolment, 'email' | 'password' | 'otpauth'>) {
  await page.goto(`${baseURL()}/admin/`);
  await page.getByLabel('E-mail', { exact: true }).fill(operator.email);
  await page.getByLabel('Password', { exact: true }).fill(operator.password);
  await page.getByLabel('Authenticator code', { exact: true }).fill(await freshTotp(operator.otpauth));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid=operator-email]', { hasText: operator.email }).waitFor();
}

/** An operator's desk: a desktop-sized window of its own, signed in through the login screen with a fresh code. */
export async function desk(
  browser: Browser,
  operator: Pick<OperatorEnrolment, 'email' | 'password' | 'otpauth'>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': freshAddress() },
    viewport: { width: 1366, height: 900 },
    locale: 'en-US',
    // The desk's animations off (the app honours the setting): a drawer or modal still fading out on a
    // loaded machine would take the next click.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('back office page error:', error.message));
  await signInToBackOffice(page, operator);
  return { context, page };
}

/** Opens a page of the back office from its menu. */
export const menu = (page: Page, name: string) => page.getByRole('menuitem', { name, exact: true }).click();

/** The session the back office keeps for this tab (sessionStorage, as the admin app stores it). */
export async function backOfficeToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => sessionStorage.getItem('pipwise.operator-token'));
  if (!token) throw new Error('the back office holds no session');
  return token;
}

/** A back-office call with an operator's own session, answering the whole envelope (refusals included). */
export async function operatorCall<T>(token: string, method: string, route: string, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${baseURL()}${route}`, {
    method,
    headers: {
      lang: 'en',
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}
