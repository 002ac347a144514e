import type { OutboxMessageView } from '@pipwise/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator, fundThroughDeposit, setSetting } from './cashier.js';
import { api, launchBrowser, myOrders, open, phone, registerRealUser, screenshot, signInAs, type PairView } from './support.js';

const SUBMIT = '/v1/api/forex/submit';
const SET_STOPS = '/v1/api/forex/set_stop_price';
const FIGURES = '/v1/api/main/account/forexDetail';

interface Figures {
  net_value: number;
  current_margin: number;
  prepayment_ratio: number | null;
}

/** Bitcoin trades around the clock and moves several dollars on every step of the simulated feed. */
async function bitcoin(): Promise<PairView> {
  const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
  const pair = pairs.find((candidate) => candidate.Code === 'BTCUSD');
  if (!pair || pair.MarketStatus !== 1) throw new Error('BTCUSD is not trading');
  return pair;
}

/** As the app writes them in English: 2 decimals, thousands separated, a sign when asked. */
const english = (value: number, signed = false) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
  }).format(value);

/**
 * Issue 21 items 1 and 2 on a 390×844 phone: the engine's take-profit is told on whatever screen the
 * trader is on, with the P&L the history holds; the risk panel's margin level is equity ÷ used margin as
 * the API states them; and a stop-out (driven here by the operators' levels, the prices being the
 * simulated feed's) is preceded by the margin-call state and told by a notice and an e-mail.
 */
describe('account risk and close-out notices', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await setSetting('margin_call_level', '100');
    await setSetting('stop_out_level', '50');
    await browser?.close();
  });

  it('tells a take-profit on another screen, shows the live margin level, then a margin call and a stop-out', async () => {
    const account = await registerRealUser('risk');
    await fundThroughDeposit(account.token, '1000');
    const { context, page } = await phone(browser, 'en');
    // The app's socket is ready for account notices once the server has answered a ping sent after its
    // NOTICE subscription (the server handles a socket's messages in order).
    const listening = new Promise<void>((resolve) =>
      page.on('websocket', (socket) => {
        let subscribed = false;
        socket.on('framesent', (frame) => {
          if (String(frame.payload).includes('"topic":"NOTICE"')) subscribed = true;
        });
        socket.on('framereceived', (frame) => {
          if (subscribed && String(frame.payload).includes('"pong"')) resolve();
        });
      }),
    );
    await signInAs(page, account);
    const pair = await bitcoin();

    // A take-profit while the trader reads the user centre: the level follows the market up to the bid.
    await open(page, '/user');
    // Every toast shown is recorded as it appears (a toast leaves after a few seconds).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { toasts: string[] }).toasts = seen;
      new MutationObserver(() => {
        document.querySelectorAll('[data-testid="notice-toast"]').forEach((toast) => {
          const reason = toast.getAttribute('data-reason') ?? '';
          const text = `${reason}|${toast.querySelector('[data-testid="notice-toast-profit"]')?.textContent ?? ''}`;
          if (!seen.includes(text)) seen.push(text);
        });
      }).observe(document.body, { childList: true, subtree: true });
    });
    const toasts = () => page.evaluate(() => (window as unknown as { toasts: string[] }).toasts);
    await listening;
    const held = await api<{ Id: number }>(SUBMIT, account.token, {
      method: 'POST',
      body: { type: 1, cont: String(pair.ForexMinCont), forex_id: pair.Id, status: 1, multiple: 10 },
    });
    await expect
      .poll(
        async () => {
          const closed = (await myOrders(account.token, 3)).data.find((order) => order.Id === held.Id);
          if (closed) return true;
          const { Bid } = (await bitcoin()).ForexQuotations;
          await api(SET_STOPS, account.token, {
            method: 'POST',
            body: { id: held.Id, target_profit_price: (Bid + 0.5).toFixed(2) },
          }).catch(() => null);
          return false;
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe(true);
    const history = (await myOrders(account.token, 3)).data.find((order) => order.Id === held.Id) as unknown as {
      FactProfits: number;
      CloseReason: string;
    };
    expect(history.CloseReason).toBe('take_profit');
    const notices = await api<{ data: { reason: string; profit: number }[] }>('/api/notice/account_list?page=1', account.token);
    expect(notices.data.map((notice) => [notice.reason, notice.profit])).toEqual([['take_profit', history.FactProfits]]);
    await expect.poll(toasts, { timeout: 30_000 }).toContain(`take_profit|P&L ${english(history.FactProfits, true)}`);

    // The same line under the bell.
    await open(page, '/mine/notices');
    const line = page.locator('[data-testid="account-notices"] li[data-reason="take_profit"]');
    await expect
      .poll(() => line.getByTestId('account-notice-profit').innerText())
      .toBe(`P&L ${english(history.FactProfits, true)}`);

    // A position of about 40 % of the money as margin: the panel's margin level is equity ÷ used margin.
    const probe = await api<{ Id: number; CautionMoney: number }>(SUBMIT, account.token, {
      method: 'POST',
      body: { type: 1, cont: String(pair.ForexMinCont), forex_id: pair.Id, status: 1, multiple: 10 },
    });
    const steps = Math.max(1, Math.floor(400 / probe.CautionMoney) - 1);
    await api(SUBMIT, account.token, {
      method: 'POST',
      body: { type: 1, cont: (pair.ForexMinCont * steps).toFixed(4), forex_id: pair.Id, status: 1, multiple: 10 },
    });
    await open(page, '/order');
    const panel = page.getByTestId('risk-panel');
    await expect
      .poll(
        async () => {
          const figures = await api<Figures>(FIGURES, account.token);
          const shown = await panel.getByTestId('risk-margin-level').innerText();
          return shown === `${english((figures.net_value / figures.current_margin) * 100)} %`;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect.poll(() => panel.getAttribute('data-state')).toBe('safe');
    await expect.poll(() => panel.getByTestId('risk-state').innerText()).toContain('Stop-out at 50.00 %');
    await screenshot(page, 'risk-panel-safe');

    // The margin-call level raised above the account's level: the panel warns, a notice comes.
    const level = (await api<Figures>(FIGURES, account.token)).prepayment_ratio ?? 0;
    await setSetting('margin_call_level', (Math.ceil(level) + 30).toFixed(0));
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 30_000 }).toBe('margin_call');
    await page.locator('[data-testid="notice-toast"][data-reason="margin_call"]').waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'risk-panel-margin-call');

    // Then the stop-out level: the engine closes the positions, the trader is told, and e-mailed.
    await setSetting('stop_out_level', (Math.ceil(level) + 15).toFixed(0));
    await page
      .locator('[data-testid="notice-toast"][data-reason="stop_out"]')
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'notice-stop-out-toast');
    const stoppedOut = (await myOrders(account.token, 3)).data.filter(
      (order) => (order as unknown as { CloseReason: string }).CloseReason === 'stop_out',
    );
    expect(stoppedOut.length).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          const outbox = await asOperator<{ data: OutboxMessageView[] }>(
            `/admin/api/outbox?${new URLSearchParams({ destination: account.user.email })}`,
            {},
            'GET',
          );
          return outbox.data.map((message) => message.subject);
        },
        { timeout: 30_000 },
      )
      .toEqual(expect.arrayContaining(['Margin call on your account', 'Stop-out: positions closed on your account']));
    await context.close();
  });
});
