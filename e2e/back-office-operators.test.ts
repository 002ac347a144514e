import type { AuditRowView, OperatorRowView, RiskView } from '@pipwise/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backOfficeToken,
  createOperator,
  desk,
  freshTotp,
  menu,
  operatorCall,
  signInToBackOffice,
  type OperatorEnrolment,
} from './backoffice.js';
import { asOperator } from './cashier.js';
import { baseURL, freshAddress, launchBrowser, operatorToken, screenshot } from './support.js';

/*
 * The superadmin's operator desk, driven on screen: a new operator is added (another superadmin approves
 * it, and is handed the one-time enrolment link), opens the link, chooses their own password and adds
 * their own authenticator, changes their password, gets a new role (approved likewise), is cut off when
 * disabled and let back in when enabled, and a reset hands over a new link. Each step is checked where
 * the server keeps it: the operator list, the sign-in endpoint and the audit log.
 */

interface Credentials {
  email: string;
  password: string;
  otpauth: string;
}

const CHOSEN_PASSWORD = 'the one I chose at enrolment';
const NEW_PASSWORD = 'a long passphrase of my own';
const AFTER_RESET = 'chosen again after a reset';

/** The enrolment link the window shows once, read as the superadmin would copy it. */
async function shownLink(page: Page): Promise<string> {
  const shown = page.getByRole('dialog', { name: 'Enrolment link' });
  await shown.waitFor();
  const link = (await shown.getByTestId('enrolment-link').innerText()).trim();
  await shown.getByRole('button', { name: 'I have handed it over' }).click();
  await shown.waitFor({ state: 'hidden' });
  return link;
}

/** A pending change of the operators, approved by the server's first superadmin (not the one who asked). */
async function approveAsFirstSuperadmin(kind: string, email: string): Promise<{ link?: string }> {
  const waiting = await operatorCall<{ id: number; kind: string; payload: { email?: string } }[]>(
    operatorToken(),
    'GET',
    '/admin/api/changes?status=0',
  );
  const change = waiting.data.find((row) => row.kind === kind && row.payload.email === email);
  if (!change) throw new Error(`no pending ${kind} for ${email}`);
  const approved = await operatorCall<{ result: { link?: string } }>(
    operatorToken(),
    'POST',
    `/admin/api/changes/${change.id}/approve`,
    {},
  );
  expect(approved.code).toBe(1);
  return approved.data.result;
}

/** Opens an enrolment link on screen as its operator: their own password and their authenticator's code. */
async function enrolOnScreen(page: Page, link: string, email: string, password: string): Promise<Credentials> {
  await page.goto(link);
  const secret = page.getByTestId('enrolment-otpauth');
  await secret.waitFor();
  const otpauth = (await secret.innerText()).replace(/\s+/g, '');
  expect(otpauth).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
  await page.getByLabel('Your new password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password', { exact: true }).fill(password);
  await page.getByLabel('Authenticator code', { exact: true }).fill(await freshTotp(otpauth));
  await page.getByRole('button', { name: 'Finish and sign in' }).click();
  await page.locator('[data-testid=operator-email]', { hasText: email }).waitFor();
  return { email, password, otpauth };
}

/** Answers the popconfirm a row's button opened with its confirming button. */
async function confirmPopover(page: Page, name: string) {
  await page.locator('.ant-popconfirm').getByRole('button', { name, exact: true }).click();
}

const operatorRow = async (email: string) =>
  (await asOperator<OperatorRowView[]>('/admin/api/operators', {}, 'GET')).find((row) => row.email === email);

/** Whether the back office shows its sign-in screen (the session was refused). */
const signInShown = (page: Page) => page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 15_000 });

/** The digits of a figure as shown ("1,234.50 (3)" → "1234503"). */
const digits = (text: string) => text.replace(/\D/g, '');

const menuItem = (page: Page, name: string): Locator => page.getByRole('menuitem', { name, exact: true });

describe('a superadmin manages operators on screen, and the operator lives with the result', () => {
  let browser: Browser;
  let superadmin: OperatorEnrolment;
  let admin: { context: BrowserContext; page: Page };
  let newcomer: { context: BrowserContext; page: Page };
  let issued: Credentials;
  let id: number;
  const email = `e2e-newcomer-${process.pid}-${Date.now()}@ops.example.com`;

  beforeAll(async () => {
    browser = await launchBrowser();
    superadmin = await createOperator('superadmin');
    admin = await desk(browser, superadmin);
    await menu(admin.page, 'Operators');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('adds a support operator once a second superadmin approves; the operator enrols through the link with their own password and code', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Add operator' }).click();
    const form = page.getByRole('dialog', { name: 'Add operator' });
    await form.getByLabel('E-mail', { exact: true }).fill(email);
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The new operator waits for a second superadmin’s approval').waitFor();
    expect(await operatorRow(email)).toBeUndefined();
    const { link } = await approveAsFirstSuperadmin('operator.add', email);
    expect(link).toMatch(/^\/admin\/#\/enrol\/[\w-]{43}$/);

    const stored = await operatorRow(email);
    expect(stored).toMatchObject({ role: 'support', disabled: false });
    id = stored!.id;
    await page.reload();
    await expect(page.getByTestId(`row-${id}`).innerText()).resolves.toContain('Active');

    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': freshAddress() },
      viewport: { width: 1366, height: 900 },
      locale: 'en-US',
      reducedMotion: 'reduce',
    });
    newcomer = { context, page: await context.newPage() };
    issued = await enrolOnScreen(newcomer.page, `${baseURL()}${link!}`, email, CHOSEN_PASSWORD);
    // The link is spent.
    const token = link!.slice(link!.lastIndexOf('/') + 1);
    expect(await operatorCall('', 'POST', '/admin/api/enrolment/begin', { token })).toMatchObject({ code: 1002 });
    await menuItem(newcomer.page, 'Feedback').waitFor();
    expect(await menuItem(newcomer.page, 'Deposits').count()).toBe(0);
    expect(await menuItem(newcomer.page, 'Operators').count()).toBe(0);
    await screenshot(admin.page, 'back-office-operators');
  });

  it('changes their role: the server answers to the new role, and their desk shows its pages', async () => {
    const { page } = admin;
    await page.getByRole('combobox', { name: `Role of ${email}` }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Finance"]').click();
    const confirm = page.getByRole('dialog', { name: `Give ${email} the role Finance?` });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('The role change waits for a second superadmin’s approval').waitFor();
    expect((await operatorRow(email))?.role).toBe('support');
    await approveAsFirstSuperadmin('operator.role', email);
    await expect.poll(async () => (await operatorRow(email))?.role).toBe('finance');

    await newcomer.page.reload();
    await menuItem(newcomer.page, 'Deposits').waitFor();
    expect(await menuItem(newcomer.page, 'Feedback').count()).toBe(0);
  });

  it('as finance they open the risk view: its figures are the server’s, its charts are drawn, and it refreshes itself', async () => {
    const { page } = newcomer;
    await menu(page, 'Risk');
    const stat = (key: string) => page.getByTestId(`stat-${key}`).locator('.ant-statistic-content');
    await stat('today_new_users').waitFor();
    const risk = await operatorCall<RiskView>(await backOfficeToken(page), 'GET', '/admin/api/risk');
    expect(risk.code).toBe(1);
    // Nothing else uses this server while this file runs: today's cashier figures and new users hold still.
    expect(digits(await stat('today_new_users').innerText())).toBe(String(risk.data.today.new_users));
    expect(digits(await stat('today_deposits').innerText())).toBe(
      `${risk.data.today.deposits.amount.toFixed(2).replace('.', '')}${risk.data.today.deposits.count}`,
    );
    for (const chart of ["Clients' net exposure per instrument (USD)", 'Book floating P&L this session']) {
      await page.getByRole('img', { name: chart }).locator('svg').first().waitFor();
    }
    const updated = page.getByTestId('risk-at');
    const first = await updated.innerText();
    await expect.poll(() => updated.innerText(), { timeout: 10_000 }).not.toBe(first);
  });

  it('the operator changes their own password on their account page; the one handed over stops working', async () => {
    const { page } = newcomer;
    await menu(page, 'My account');
    await page.getByLabel('Current password', { exact: true }).fill(issued.password);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed; your other sessions have ended.').waitFor();
    // This session goes on: it is the one that made the change.
    await page.getByRole('cell', { name: 'This session' }).waitFor();

    const withOld = await operatorCall('', 'POST', '/admin/api/login', { email, password: issued.password, otp: '000000' });
    expect(withOld).toMatchObject({ code: 1002 });
  });

  it('disabling them ends their session on screen; enabled again, they sign in with their own password', async () => {
    const { page } = admin;
    await page.getByTestId(`row-${id}`).getByRole('button', { name: 'Disable' }).click();
    await confirmPopover(page, 'Disable');
    await page.getByText('Operator disabled; their sessions have ended.').waitFor();
    expect((await operatorRow(email))?.disabled).toBe(true);

    await menu(newcomer.page, 'Users');
    await signInShown(newcomer.page);

    // Enabling gives back a raised role's powers: the other superadmin approves it.
    await page.getByTestId(`row-${id}`).getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Enabling this operator waits for a second superadmin’s approval (Pending changes).').waitFor();
    expect((await operatorRow(email))?.disabled).toBe(true);
    await approveAsFirstSuperadmin('operator.enable', email);
    expect((await operatorRow(email))?.disabled).toBe(false);
    await signInToBackOffice(newcomer.page, { ...issued, password: NEW_PASSWORD });
  });

  it('works on a tablet held upright: the menu opens from the header and pages scroll only within their tables', async () => {
    const { page } = admin;
    await page.setViewportSize({ width: 768, height: 1024 });
    // The side menu folds away below 992 px; the header's button brings it back, and choosing a page folds it.
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    await expect.poll(() => menuItem(page, 'Audit log').isVisible()).toBe(false);
    for (const name of ['Audit log', 'Operators']) {
      await menuButton.click();
      await menuItem(page, name).click();
      await expect.poll(() => menuItem(page, name).isVisible()).toBe(false);
      await page.getByRole('heading', { name }).waitFor();
      await page.locator('.ant-table').first().waitFor();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
      }));
      expect(widths.page, name).toBeLessThanOrEqual(widths.viewport + 1);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'back-office-tablet');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('a reset hands over a new link and ends their session; every change is in the audit log under who made it', async () => {
    const { page } = admin;
    await page.getByTestId(`row-${id}`).getByRole('button', { name: 'Reset credentials' }).click();
    await confirmPopover(page, 'Reset credentials');
    const link = await shownLink(page);
    expect(link.startsWith(`${baseURL()}/admin/#/enrol/`)).toBe(true);

    await newcomer.page.reload();
    await signInShown(newcomer.page);
    const withOld = await operatorCall('', 'POST', '/admin/api/login', {
      email,
      password: NEW_PASSWORD,
      otp: await freshTotp(issued.otpauth),
    });
    expect(withOld).toMatchObject({ code: 1002 });
    const renewed = await enrolOnScreen(newcomer.page, link, email, AFTER_RESET);
    expect(renewed.otpauth).not.toBe(issued.otpauth);

    const audit = await asOperator<{ data: AuditRowView[] }>(
      `/admin/api/audit?target_type=operator&target_id=${id}&page_size=100`,
      {},
      'GET',
    );
    const actions = (actor: string) =>
      audit.data
        .filter((row) => row.actor === actor)
        .map((row) => row.action)
        .reverse();
    // The first superadmin approved the addition, the role and the enabling; the one at the desk did the rest.
    expect(actions('operator:admin@localhost')).toEqual(['operator.create', 'operator.role', 'operator.enable']);
    expect(actions(`operator:${superadmin.email}`)).toEqual(['operator.disable', 'operator.reset']);
    expect(actions(`operator:${email}`)).toEqual(
      expect.arrayContaining(['operator.enrol', 'operator.login', 'operator.password_change']),
    );
  });
});
