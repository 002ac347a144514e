import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

/**
 * The server of this worker: the e2e project runs as many files at once as it has servers, and the pool id
 * (1…maxWorkers) of a running file is unique among the files running beside it.
 */
function server() {
  const servers = inject('e2eServers');
  return servers[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % servers.length]!;
}

export const baseURL = () => server().baseURL;
/** A session of this server's superadmin, for the operator calls journeys make (see cashier.ts `asOperator`). */
export const operatorToken = () => server().operatorToken;
/** A session of a second superadmin who approves what the first asks for that waits for a second one. */
export const approverToken = () => server().approverToken;
const artifacts = path.resolve(import.meta.dirname, 'artifacts');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A phone-sized page (390×844) in the given language, with a fresh storage. */
/**
 * A client address of its own for one simulated person or device: random in 10.0.0.0/8, so files (each
 * with its own module state) do not hand out the same addresses within a rate-limit window.
 */
export function freshAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `10.${octet()}.${octet()}.${octet()}`;
}

export async function phone(browser: Browser, language = 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': freshAddress() },
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: language === 'ar' ? 'ar' : 'en-US',
  });
  await context.addInitScript((lang) => localStorage.setItem('pipwise.lang', lang), language);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  return { context, page };
}

/** A desktop browser's page (1440×900, a mouse and a keyboard) in the given language, with a fresh storage. */
export async function desktop(browser: Browser, language = 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': freshAddress() },
    viewport: { width: 1440, height: 900 },
    locale: language === 'ar' ? 'ar' : 'en-US',
  });
  await context.addInitScript((lang) => localStorage.setItem('pipwise.lang', lang), language);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  return { context, page };
}

/** Opens a hash route of the app. */
export async function open(page: Page, route: string) {
  await page.goto(`${baseURL()}/#${route}`);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  // Canvases (the candlestick chart) repaint on the next animation frame after a viewport change.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}

/**
 * Whether the person sees `locator`: all of it inside the window, and nothing drawn over its middle or near
 * its edges (a toast, a dialog). Not its very corners: hit testing follows rounded ones.
 */
export function inSight(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.left < 0 || box.top < 0 || box.right > window.innerWidth || box.bottom > window.innerHeight) return false;
    const inset = 2;
    const [middleX, middleY] = [box.left + box.width / 2, box.top + box.height / 2];
    const points = [
      [middleX, middleY],
      [box.left + inset, middleY],
      [box.right - inset, middleY],
      [middleX, box.top + inset],
      [middleX, box.bottom - inset],
    ] as const;
    return points.every(([x, y]) => {
      const top = document.elementFromPoint(x, y);
      return top !== null && element.contains(top);
    });
  });
}

/** The API's answer envelope. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Calls the real API, as a second witness of what the server holds. */
export async function api<T>(route: string, token?: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseURL()}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      lang: 'en',
      'x-forwarded-for': freshAddress(),
      ...(token ? { authorization: token } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 1) throw new Error(`${route}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

interface OutboxMessage {
  id: number;
  body: string;
}

/** The outbox's messages to `destination`, newest first, read as support reads them in the back office. */
async function outboxTo(destination: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseURL()}/admin/api/outbox?${new URLSearchParams({ destination })}`, {
    headers: { lang: 'en', authorization: `Bearer ${operatorToken()}` },
  });
  const envelope = (await response.json()) as Envelope<{ data: OutboxMessage[] }>;
  if (envelope.code !== 1) throw new Error(`outbox: ${envelope.code} ${envelope.msg}`);
  return envelope.data.data;
}

/** The newest outbox message to `destination` so far (0: none): `emailedCode` can then wait for a later one. */
export async function outboxMark(destination: string): Promise<number> {
  return (await outboxTo(destination))[0]?.id ?? 0;
}

/** The six-digit code in the newest message to `destination` after message `after` (waiting for it to be stored). */
export async function emailedCode(destination: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const newest = (await outboxTo(destination))[0];
    const code = newest && newest.id > after ? /\b(\d{6})\b/.exec(newest.body)?.[1] : undefined;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code was sent to ${destination}`);
}

/** The token the app stored after signing in. */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const saved = localStorage.getItem('pipwise.session');
    return saved ? (JSON.parse(saved) as { state?: { token?: string } }).state?.token : undefined;
  });
  if (!token) throw new Error('the app holds no session');
  return token;
}

/** Whether the page scrolls sideways anywhere (it must not at 360–430 px). */
export async function hasHorizontalScroll(page: Page) {
  return page.evaluate(() =>
    [document.documentElement, ...Array.from(document.querySelectorAll<HTMLElement>('.screen-body'))].some((element) =>
      element.offsetParent !== null || element === document.documentElement
        ? element.scrollWidth > element.clientWidth + 1
        : false,
    ),
  );
}

export interface PairView {
  Id: number;
  Code: string;
  ShowCode: string;
  CategoryId: number;
  MarketStatus: number;
  PricePrecision: number;
  ForexMinCont: number;
  ForexQuotations: { Bid: number; Ask: number; Close: number };
}

/** A market that is open now (crypto trades around the clock, so one always is). */
export async function openMarket(): Promise<PairView> {
  const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
  const open = pairs.find((pair) => pair.MarketStatus === 1);
  if (!open) throw new Error('no market is open');
  return open;
}

export interface OrderView {
  Id: number;
  OrderType: number;
  Quantity: number;
  FactProfits: number;
  TradeFee: number;
  TargetProfitPrice: number;
  TargetLossPrice: number;
  Status: number;
}

export const myOrders = (token: string, status: number) =>
  api<{ data: OrderView[]; total: number }>(`/v1/api/forex/my_deal?status=${status}`, token);

export const balanceOf = async (token: string) =>
  (await api<{ balance: number }>('/v1/api/main/wallet/getBalance', token)).balance;

/** Money in cents, so sums of 2-decimal amounts compare exactly. */
export const cents = (value: number) => Math.round(value * 100);

/** The password every e2e account is registered with. */
export const E2E_PASSWORD = 'Winning2026';

export interface RealAccount {
  token: string;
  user: { id: number; email: string; invite_code: string; is_demo: number };
}

let registered = 0;

/** A real account made through the API (registration through the screens has its own journeys). */
export async function registerRealUser(prefix: string): Promise<RealAccount> {
  registered += 1;
  const email = `${prefix}-${process.pid}-${Date.now()}-${registered}@example.com`;
  await api('/api/notify/send_email', undefined, { method: 'POST', body: { to: email, type: 1 } });
  const code = await emailedCode(email);
  return api<RealAccount>('/api/user/register', undefined, {
    method: 'POST',
    body: {
      type: 1,
      account: email,
      password: E2E_PASSWORD,
      re_password: E2E_PASSWORD,
      sms_code: code,
      country: 'DE',
      risk_disclosure_version: 1,
    },
  });
}

/**
 * Fills the sign-up form's account part on the screen: the e-mail, the code it was sent (once the resend
 * countdown shows it went out), and the password twice.
 */
export async function fillSignUpAccount(page: Page, email: string, password = 'Winning2026') {
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('button', { name: /Resend in/ }).waitFor();
  await page.getByRole('textbox', { name: 'Verification code' }).fill(await emailedCode(email));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(password);
}

/** Answers what sign-up asks besides the account, on the screen: the country of residence, the risk disclosure accepted. */
export async function answerSignUpQuestions(page: Page, country = 'Germany') {
  await page.getByRole('combobox', { name: 'Country of residence' }).selectOption({ label: country });
  await page.getByText('I have read and accept the risk disclosure').click();
}

/** Opens the app already signed in as `account` (the sign-in screens have their own journeys). */
export async function signInAs(page: Page, account: { token: string; user: unknown }) {
  await page.addInitScript(
    (saved) => localStorage.setItem('pipwise.session', saved),
    JSON.stringify({ state: { token: account.token, user: account.user, demo: null }, version: 0 }),
  );
}
