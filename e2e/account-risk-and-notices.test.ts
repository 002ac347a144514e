import type { AccountNoticeListView, AccountNoticeView, OutboxMessageView } from '@pipwise/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { asOperator, fundThroughDeposit, setSetting } from './cashier.js';
import {
  api,
  desktop,
  inSight,
  launchBrowser,
  myOrders,
  open,
  phone,
  registerRealUser,
  screenshot,
  signInAs,
  type PairView,
} from './support.js';

const SUBMIT = '/v1/api/forex/submit';
const SET_STOPS = '/v1/api/forex/set_stop_price';
const FIGURES = '/v1/api/main/account/forexDetail';

interface Figures {
  net_value: number;
  current_margin: number;
  prepayment_ratio: number | null;
  margin_call_level: number;
}

/** The messages sent to `email`, as support reads them in the back office. */
const outboxOf = async (email: string) =>
  (await asOperator<{ data: OutboxMessageView[] }>(`/admin/api/outbox?${new URLSearchParams({ destination: email })}`, {}, 'GET'))
    .data;

/** Bitcoin trades around the clock and moves several dollars on every step of the simulated feed. */
async function bitcoin(): Promise<PairView> {
  const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
  const pair = pairs.find((candidate) => candidate.Code === 'BTCUSD');
  if (!pair || pair.MarketStatus !== 1) throw new Error('BTCUSD is not trading');
  return pair;
}

/** As the app writes them in English: 2 decimals (or `decimals`), thousands separated, a sign when asked. */
const english = (value: number, signed = false, decimals = 2) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
  }).format(value);

const CLOSE_TITLES: Record<string, string> = { take_profit: 'Take profit', stop_out: 'Stop-out' };

/** A closing notice's toast as the app writes it in English from the figures the API stored with it. */
function closingToast(notice: AccountNoticeView) {
  const lots = notice.lots ?? 0;
  const lotsText = `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(lots)} ${
    new Intl.PluralRules('en-US').select(lots) === 'one' ? 'lot' : 'lots'
  }`;
  const side = notice.side === 1 ? 'Buy' : 'Sell';
  const price = english(notice.price ?? 0, false, notice.precision ?? 5);
  return [
    notice.reason,
    CLOSE_TITLES[notice.reason ?? ''],
    `${side} ${notice.code} ${lotsText} closed at ${price}`,
    `P&L ${english(notice.profit ?? 0, true)}`,
  ].join('|');
}

/** RiskPanel.css's margin-call colour (amber), where the safe state is green and a stop-out red. */
const MARGIN_CALL_AMBER = 'rgb(217, 119, 6)';

interface Meeting<T> {
  /** Waits there with `value` until the act has run (or the meeting is called off). */
  arrive: (value: T) => Promise<void>;
  /** A journey that failed calls it off, so the others fail at once rather than wait out their time. */
  callOff: () => void;
}

/**
 * Lets journeys running side by side meet: each arrives with a value, the last to arrive runs `act` with
 * all of them, and each goes on once it has run.
 */
function meeting<T>(count: number, act: (values: T[]) => Promise<unknown>): Meeting<T> {
  const values: T[] = [];
  let allHere!: () => void;
  let calledOff!: (reason: Error) => void;
  const acted = new Promise<void>((resolve, reject) => {
    allHere = resolve;
    calledOff = reject;
  }).then(async () => {
    await act(values);
  });
  // Those who arrive await it; a meeting nobody came to is no error of its own.
  acted.catch(() => undefined);
  return {
    arrive: (value) => {
      values.push(value);
      if (values.length === count) allHere();
      return acted;
    },
    callOff: () => calledOff(new Error('a journey running beside this one failed before the meeting')),
  };
}

/**
 * The same journey on a phone and on the desktop trader, run side by side (each with its own account).
 * The operators' levels that drive the margin call and the stop-out hold for every account, so both
 * journeys go through them together: the levels move once both accounts have reached that step.
 */
const VIEWPORTS = [
  { name: '390×844 phone', size: 'phone', then: 'a margin call and a stop-out' },
  {
    name: '1440×900 desktop',
    size: 'desktop',
    then: 'an order placed from the ticket with the keyboard, a margin call and a stop-out',
  },
] as const;

/**
 * Issue 21 items 1 and 2 at 390×844 and 1440×900: the engine's take-profit is told on whatever screen the
 * trader is on, with the P&L the history holds; the risk panel's margin level is equity ÷ used margin as
 * the API states them; on the desktop an order is placed from the ticket with the keyboard; and a stop-out
 * (driven here by the operators' levels, the prices being the simulated feed's) is preceded by the
 * margin-call state and told by a notice and an e-mail.
 */
describe('account risk and close-out notices', () => {
  let browser: Browser;
  // Above the higher of the two accounts' margin levels, so both reach it (the stop-out below the call).
  const raiseMarginCall = meeting<number>(VIEWPORTS.length, (levels) =>
    setSetting('margin_call_level', (Math.ceil(Math.max(...levels)) + 30).toFixed(0)),
  );
  const raiseStopOut = meeting<number>(VIEWPORTS.length, (levels) =>
    setSetting('stop_out_level', (Math.ceil(Math.max(...levels)) + 15).toFixed(0)),
  );

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await setSetting('margin_call_level', '100');
    await setSetting('stop_out_level', '50');
    await browser?.close();
  });

  it.concurrent.for(VIEWPORTS.map((viewport) => [viewport.name, viewport.then, viewport] as const))(
    'on a %s: tells a take-profit on another screen, shows the live margin level, then %s',
    async ([, , { size }], { expect, onTestFailed }) => {
      onTestFailed(() => {
        raiseMarginCall.callOff();
        raiseStopOut.callOff();
      });
      const account = await registerRealUser('risk');
      await fundThroughDeposit(account.token, '1000');
      const { context, page } = await (size === 'phone' ? phone : desktop)(browser, 'en');
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
      // Every toast shown is recorded as it appears, its reason and its lines (a toast leaves after a few
      // seconds). The app's hash routes keep this page, so the record spans the screens opened later.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { toasts: string[] }).toasts = seen;
        new MutationObserver(() => {
          document.querySelectorAll('[data-testid="notice-toast"]').forEach((toast) => {
            const lines = Array.from(toast.querySelector('.notice-toast-text')?.children ?? [], (line) => line.textContent);
            const text = [toast.getAttribute('data-reason') ?? '', ...lines].join('|');
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
      const notices = await api<AccountNoticeListView>('/api/notice/account_list?page=1', account.token);
      expect(notices.data.map((notice) => [notice.reason, notice.profit])).toEqual([['take_profit', history.FactProfits]]);
      await expect.poll(toasts, { timeout: 30_000 }).toContain(closingToast(notices.data[0]!));

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
      // The phone's orders tab, the desktop trader's terminal: both show the panel.
      await open(page, size === 'phone' ? '/order' : '/trade');
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
      expect(await inSight(panel)).toBe(true);
      await screenshot(page, `risk-panel-safe-${size}`);
      if (size === 'desktop') await placeWithKeyboard(page, account.token, pair, expect);

      // The margin-call level raised above the account's level: the panel warns in amber and in words, a
      // notice comes.
      const level = (await api<Figures>(FIGURES, account.token)).prepayment_ratio ?? 0;
      await raiseMarginCall.arrive(level);
      await expect.poll(() => panel.getAttribute('data-state'), { timeout: 30_000 }).toBe('margin_call');
      const { margin_call_level: callLevel } = await api<Figures>(FIGURES, account.token);
      await expect
        .poll(() => panel.getByTestId('risk-state').innerText())
        .toContain(`Margin call: ${english(callLevel)} % or less`);
      expect(await panel.locator('.risk-dot').evaluate((dot) => getComputedStyle(dot).backgroundColor)).toBe(MARGIN_CALL_AMBER);
      expect(await panel.evaluate((section) => getComputedStyle(section).borderInlineStartColor)).toBe(MARGIN_CALL_AMBER);
      await page
        .locator('[data-testid="notice-toast"][data-reason="margin_call"]')
        .waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot(page, `risk-panel-margin-call-${size}`);
      // The notices dismissed (on a phone they stand over the panel), the warning is in sight. All clicked in
      // one go: a toast may leave on its own between a count and a click.
      await page.evaluate(() =>
        document
          .querySelectorAll<HTMLButtonElement>('[data-testid="notice-toast"] button[aria-label="Dismiss"]')
          .forEach((close) => close.click()),
      );
      await expect.poll(() => inSight(panel)).toBe(true);

      // Then the stop-out level: the engine closes positions, the trader is told of each with the figures
      // of the history, and e-mailed the tickets.
      await raiseStopOut.arrive(level);
      await page
        .locator('[data-testid="notice-toast"][data-reason="stop_out"]')
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      if (size === 'desktop') {
        // The notices stand at the foot of the ticket's column: the live price, the account mode and the
        // account's risk stay in sight.
        expect(await inSight(page.locator('.terminal .trade-price'))).toBe(true);
        expect(await inSight(panel)).toBe(true);
        expect(await inSight(page.locator('.terminal .account-mode'))).toBe(true);
        expect(await inSight(page.locator('[data-testid="notice-toast"][data-reason="stop_out"]').first())).toBe(true);
      }
      await screenshot(page, `notice-stop-out-toast-${size}`);
      // The positions the stop-out closed, as the history and the notices state them: the notices follow the
      // engine's commit, so the two are read until they agree.
      const stopOuts = async () => {
        const [history, notices] = await Promise.all([
          myOrders(account.token, 3),
          api<AccountNoticeListView>('/api/notice/account_list?page=1', account.token),
        ]);
        const closed = history.data.filter((order) => (order as unknown as { CloseReason: string }).CloseReason === 'stop_out');
        const told = notices.data.filter((notice) => notice.reason === 'stop_out');
        return {
          closed,
          told,
          agree:
            closed.length > 0 &&
            JSON.stringify(closed.map((order) => [order.Id, order.FactProfits]).sort()) ===
              JSON.stringify(told.map((notice) => [notice.order_id, notice.profit]).sort()),
        };
      };
      await expect.poll(async () => (await stopOuts()).agree, { timeout: 30_000 }).toBe(true);
      const { closed: stoppedOut } = await stopOuts();
      // Several closed at once may pass each other on screen (three toasts at most): each one shown states
      // its position's instrument, lots, price, P&L and reason as the API does.
      const wronglyShown = async () => {
        const stated = (await stopOuts()).told.map(closingToast);
        return (await toasts()).filter((toast) => toast.startsWith('stop_out|') && !stated.includes(toast));
      };
      expect((await toasts()).some((toast) => toast.startsWith('stop_out|'))).toBe(true);
      await expect.poll(wronglyShown).toEqual([]);
      // The margin call was told before the stop-out.
      const reasonsInOrder = (await toasts()).map((toast) => toast.split('|')[0]);
      expect(reasonsInOrder.indexOf('margin_call')).toBeGreaterThan(-1);
      expect(reasonsInOrder.indexOf('margin_call')).toBeLessThan(reasonsInOrder.indexOf('stop_out'));
      // The e-mails: the margin call, and the stop-out naming every ticket it closed.
      const mailed = async () => {
        const messages = await outboxOf(account.user.email);
        const stopOutMails = messages.filter((message) => message.subject === 'Stop-out: positions closed on your account');
        return {
          marginCall: messages.some((message) => message.subject === 'Margin call on your account'),
          stopOutTickets: stoppedOut.filter((order) => stopOutMails.some((mail) => mail.body.includes(`(ticket ${order.Id})`)))
            .length,
        };
      };
      await expect.poll(mailed, { timeout: 30_000 }).toEqual({ marginCall: true, stopOutTickets: stoppedOut.length });
      await context.close();
    },
  );
});

/**
 * On the desktop trader: Bitcoin chosen in the watchlist, the lots typed and Buy pressed with the keyboard
 * (Tab moves, Enter acts, the focus is drawn; the leverage is clicked); the receipt names the new
 * position's ticket.
 */
async function placeWithKeyboard(page: Page, token: string, pair: PairView, expect: ExpectStatic) {
  expect(await page.evaluate(() => document.documentElement.classList.contains('desktop-trader'))).toBe(true);
  const before = (await myOrders(token, 1)).data.length;
  /** Presses Tab until `check` finds the wanted element focused. */
  const tabTo = async (check: () => Promise<boolean>) => {
    for (let step = 0; step < 80 && !(await check()); step += 1) await page.keyboard.press('Tab');
    expect(await check()).toBe(true);
  };
  await page.locator('body').focus();
  await tabTo(() =>
    page.evaluate(
      () =>
        document.activeElement?.matches('.watch-row') === true && document.activeElement.textContent?.includes('BTCUSD') === true,
    ),
  );
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('.trade-code').innerText()).toBe('BTCUSD');
  // The highest leverage, so that the order fits beside the position held whatever Bitcoin trades at:
  // the simulated price walks with the date, and at 2× a lot's margin outgrew the free margin.
  const leverages = page.getByLabel('Leverage', { exact: true }).locator('.adm-selector-item');
  await leverages.last().click();
  await expect.poll(() => leverages.last().getAttribute('class')).toContain('adm-selector-item-active');
  await tabTo(() => page.evaluate(() => document.activeElement?.getAttribute('aria-labelledby') === 'lots-label'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(pair.ForexMinCont));
  await tabTo(() => page.evaluate(() => document.activeElement?.classList.contains('buy-button') === true));
  expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await myOrders(token, 1)).data.length).toBe(before + 1);
  const placed = (await myOrders(token, 1)).data.map((order) => order.Id).sort((a, b) => b - a)[0]!;
  const receipt = page.getByRole('dialog').filter({ hasText: `#${placed}` });
  await receipt.waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot(page, 'desktop-trader-keyboard-order');
  // Back to the terminal: the receipt would stand over the account's risk.
  await receipt.getByRole('button', { name: 'Keep trading' }).click();
  await receipt.waitFor({ state: 'hidden' });
}
