import { LANGUAGE_LOCALES, type ProviderProfileView } from '@pipwise/domain';
import { Button } from 'antd-mobile';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useProviderQuery } from '../../api/queries/copy';
import { profitTone } from '../../components/market';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatLots, formatMoney, formatNumber, formatPercent } from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { loginPath, Paths } from '../../routing/paths';
import { useSession } from '../../stores/session';
import { CopySheet } from './CopySheet';
import { monthlyTable, priceDecimals } from './figures';
import { AutomatedTag, Figure, RiskBadge } from './parts';
import './copy.css';

const ReturnChart = lazy(() => import('./ReturnChart'));

/** A provider's public profile: live figures, the return chart and monthly table, delayed positions, and the Copy button. */
export default function ProviderPage() {
  const { t } = useLazyTranslation('copy');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const profile = useProviderQuery(Number.isInteger(id) && id > 0 ? id : null);

  return (
    <Screen title={profile.data ? <span translate="no">{profile.data.nickname}</span> : t('copy.profile')} back>
      {profile.isPending && profile.fetchStatus !== 'idle' ? (
        <ListSkeleton rows={6} />
      ) : profile.isError ? (
        <ErrorState onRetry={() => void profile.refetch()} />
      ) : !profile.data ? (
        <EmptyState />
      ) : (
        <Profile profile={profile.data} />
      )}
    </Screen>
  );
}

function Profile({ profile }: { profile: ProviderProfileView }) {
  const { t } = useLazyTranslation('copy');
  const navigate = useNavigate();
  const location = useLocation();
  const signedIn = useSession((state) => state.token !== null);
  const [copying, setCopying] = useState(false);
  const years = monthlyTable(profile.monthly);

  return (
    <div className="copy-profile">
      <section className="copy-card" aria-label={t('copy.figures')}>
        <div className="copy-row-head">
          <span className="copy-nickname" translate="no" dir="auto">
            {profile.nickname}
          </span>
          {profile.automated && <AutomatedTag />}
          <RiskBadge score={profile.risk_score} />
        </div>
        {profile.bio && (
          <p className="copy-bio" translate="no" dir="auto">
            {profile.bio}
          </p>
        )}
        <div className="copy-grid">
          <Figure label={t('copy.return_1m')} className={profitTone(profile.return_1m)}>
            {formatPercent(profile.return_1m)}
          </Figure>
          <Figure label={t('copy.return_3m')} className={profitTone(profile.return_3m)}>
            {formatPercent(profile.return_3m)}
          </Figure>
          <Figure label={t('copy.return_12m')} className={profitTone(profile.return_12m)}>
            {formatPercent(profile.return_12m)}
          </Figure>
          <Figure label={t('copy.return_all')} className={profitTone(profile.return_all)}>
            {formatPercent(profile.return_all)}
          </Figure>
          <Figure label={t('copy.max_drawdown')}>{formatPercent(-Math.abs(profile.max_drawdown))}</Figure>
          <Figure label={t('copy.volatility')}>{formatNumber(profile.volatility, 2)}</Figure>
          <Figure label={t('copy.win_rate')}>{formatNumber(profile.win_rate, 2)}</Figure>
          <Figure label={t('copy.avg_holding')}>{formatNumber(profile.avg_holding_hours, 1)}</Figure>
          <Figure label={t('copy.trades_per_week')}>{formatNumber(profile.trades_per_week, 1)}</Figure>
          <Figure label={t('copy.months')}>{formatNumber(profile.months, 0)}</Figure>
          <Figure label={t('copy.copiers')}>{formatNumber(profile.copiers, 0)}</Figure>
          <Figure label={t('copy.fee')}>{formatNumber(profile.fee_pct, 0)}</Figure>
        </div>
        <p className="copy-note">{t('copy.figures_live_only')}</p>
      </section>

      <section className="copy-card" aria-labelledby="copy-chart-title">
        <h2 id="copy-chart-title" className="copy-section-title">
          {t('copy.return_chart')}
        </h2>
        <div className="copy-legend">
          <span className="copy-legend-live">{t('copy.live')}</span>
          {profile.backtest && <span className="copy-legend-backtest">{t('copy.backtest')}</span>}
        </div>
        {profile.index.length === 0 && !profile.backtest ? (
          <p className="copy-note">{t('copy.no_history')}</p>
        ) : (
          <Suspense fallback={<div className="copy-chart" />}>
            <ReturnChart
              live={profile.index}
              backtest={profile.backtest?.index ?? null}
              locale={LANGUAGE_LOCALES[currentLanguage()]}
              label={t('copy.return_chart')}
            />
          </Suspense>
        )}
        {profile.backtest && (
          <div className="copy-backtest" aria-label={t('copy.backtest')}>
            <p className="copy-note">{t('copy.backtest_note', { from: profile.backtest.from, to: profile.backtest.to })}</p>
            <div className="copy-grid">
              <Figure label={t('copy.backtest_return')}>{formatPercent(profile.backtest.return_all)}</Figure>
              <Figure label={t('copy.backtest_drawdown')}>{formatPercent(-Math.abs(profile.backtest.max_drawdown))}</Figure>
              <Figure label={t('copy.backtest_trades')}>{formatNumber(profile.backtest.trades, 0)}</Figure>
            </div>
          </div>
        )}
      </section>

      <section className="copy-card" aria-labelledby="copy-monthly-title">
        <h2 id="copy-monthly-title" className="copy-section-title">
          {t('copy.monthly')}
        </h2>
        {years.length === 0 ? (
          <p className="copy-note">{t('copy.no_history')}</p>
        ) : (
          <div className="copy-table-scroll">
            <table className="copy-monthly">
              <thead>
                <tr>
                  <th scope="col">{t('copy.year')}</th>
                  {Array.from({ length: 12 }, (_, month) => (
                    <th key={month} scope="col" className="num">
                      {formatNumber(month + 1, 0)}
                    </th>
                  ))}
                  <th scope="col">{t('copy.year_total')}</th>
                </tr>
              </thead>
              <tbody>
                {years.map((row) => (
                  <tr key={row.year}>
                    <th scope="row" className="num">
                      {row.year}
                    </th>
                    {row.months.map((value, month) => (
                      <td key={month} className={`num ${profitTone(value)}`}>
                        {value === null ? '' : formatNumber(value, 1, true)}
                      </td>
                    ))}
                    <td className={`num ${profitTone(row.total)}`}>{formatNumber(row.total, 1, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="copy-card" aria-labelledby="copy-positions-title">
        <h2 id="copy-positions-title" className="copy-section-title">
          {t('copy.open_positions')}
        </h2>
        <p className="copy-note">{t('copy.delayed', { minutes: profile.delay_minutes })}</p>
        {profile.open_positions.length === 0 ? (
          <p className="copy-note">{t('copy.no_positions')}</p>
        ) : (
          <ul className="copy-positions">
            {profile.open_positions.map((position, index) => (
              <li key={`${position.code}-${position.opened_at}-${index}`} className="copy-position">
                <span translate="no" dir="ltr">
                  {position.code}
                </span>
                <span className={position.side === 1 ? 'text-up' : 'text-down'}>
                  {position.side === 1 ? t('copy.buy') : t('copy.sell')}
                </span>
                <span className="num">{formatLots(position.lots)}</span>
                <span className="num">{formatNumber(position.open_price, priceDecimals(position.open_price))}</span>
                <span className="num label">{formatDateTime(position.opened_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="copy-card" aria-labelledby="copy-instruments-title">
        <h2 id="copy-instruments-title" className="copy-section-title">
          {t('copy.instruments')}
        </h2>
        {profile.instruments.length === 0 ? (
          <p className="copy-note">{t('copy.no_history')}</p>
        ) : (
          <ul className="copy-instruments">
            {profile.instruments.map((instrument) => (
              <li key={instrument.code}>
                <span translate="no" dir="ltr">
                  {instrument.code}
                </span>{' '}
                <span className="label">{t('copy.trades_count', { trades: formatNumber(instrument.trades, 0) })}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="copy-grid">
          <Figure label={t('copy.copiers')}>{formatNumber(profile.copiers, 0)}</Figure>
          <Figure label={t('copy.copied_amount')}>{formatMoney(profile.copied_amount)}</Figure>
        </div>
      </section>

      <div className="copy-actions">
        {profile.my_copy_id !== null ? (
          <Button block size="large" onClick={() => void navigate(Paths.copyMine)}>
            {t('copy.you_copy')}
          </Button>
        ) : profile.status !== 'active' ? (
          <p className="copy-note">{t('copy.not_copyable')}</p>
        ) : (
          <Button
            block
            color="primary"
            size="large"
            onClick={() => (signedIn ? setCopying(true) : void navigate(loginPath(location.pathname + location.search)))}
          >
            {t('copy.copy')}
          </Button>
        )}
      </div>
      {copying && <CopySheet provider={profile} onClose={() => setCopying(false)} />}
    </div>
  );
}
