import { accountFigures, marginState, roundBalance, SocketTopic, type MarginState } from '@pipwise/domain';
import { useTopic } from '../api/live';
import { useAccountFiguresQuery, useLiveAccountQuery } from '../api/queries/account';
import { formatMoney, formatNumber } from '../i18n/format';
import { useLazyTranslation } from '../i18n/lazy';
import './RiskPanel.css';

const STATE_TEXT: Record<MarginState, string> = {
  safe: 'risk.safe',
  margin_call: 'risk.margin_call',
  stop_out: 'risk.stop_out',
};

/**
 * How close the account is to a stop-out, live: balance, equity, used and free margin and the margin
 * level (equity ÷ used margin) from the account's figures with the moving parts from the FOREX_TRADE push,
 * worked out with the domain's own rules, and the state against the margin-call and stop-out levels in
 * colour and words. The figures sit in fixed cells with tabular digits, so a tick never moves the layout.
 */
export default function RiskPanel() {
  // Its own words come in a lazy bundle with it; the figures' names are the wallet's.
  const { t } = useLazyTranslation('risk');
  const figures = useAccountFiguresQuery();
  const live = useLiveAccountQuery();
  useTopic(SocketTopic.forexTrade);
  const data = figures.data;
  // The server's figures, with floating P&L and used margin from the latest push when there is one.
  const account = data
    ? accountFigures({
        balance: data.balance,
        floating: live.data?.ProfitsTotal ?? data.floating_profit,
        usedMargin: live.data?.CautionMoneyAll ?? data.current_margin,
        locked: data.lock_balance,
      })
    : null;
  const level = account?.marginLevel ?? null;
  const state = data
    ? marginState(level, { marginCallLevel: data.margin_call_level, stopOutLevel: data.stop_out_level })
    : 'safe';
  const money = (value: ReturnType<typeof roundBalance> | undefined) =>
    formatMoney(value ? roundBalance(value).toNumber() : undefined);
  const cells = [
    { label: t('wallet.balance', { ns: 'translation' }), value: money(account?.balance), testId: 'risk-balance' },
    { label: t('wallet.equity', { ns: 'translation' }), value: money(account?.equity), testId: 'risk-equity' },
    { label: t('wallet.used_margin', { ns: 'translation' }), value: money(account?.usedMargin), testId: 'risk-used-margin' },
    { label: t('wallet.free_margin', { ns: 'translation' }), value: money(account?.freeMargin), testId: 'risk-free-margin' },
    {
      label: t('risk.margin_level'),
      value: level ? `${formatNumber(level.toNumber(), 2)} %` : '--',
      testId: 'risk-margin-level',
    },
  ];
  return (
    <section
      className={`risk-panel risk-${state}`}
      aria-label={t('risk.title')}
      aria-busy={!data}
      data-testid="risk-panel"
      data-state={data ? state : undefined}
    >
      <dl className="risk-figures">
        {cells.map((cell) => (
          <div key={cell.testId}>
            <dt className="label">{cell.label}</dt>
            <dd className="num" data-testid={cell.testId}>
              {cell.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="risk-state" role="status" data-testid="risk-state">
        <span className="risk-dot" aria-hidden="true" />
        <span>
          {data
            ? level
              ? t(STATE_TEXT[state], { level: formatNumber(data.margin_call_level, 2) })
              : t('risk.no_positions')
            : t('common.loading', { ns: 'translation' })}
        </span>
        <span className="risk-stop-out num">
          {data ? t('risk.stop_out_at', { level: formatNumber(data.stop_out_level, 2) }) : ''}
        </span>
      </p>
    </section>
  );
}
