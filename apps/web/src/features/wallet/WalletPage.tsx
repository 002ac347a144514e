import { SocketTopic } from '@pipwise/domain';
import { Button, List, Skeleton } from 'antd-mobile';
import { BankcardOutline, BillOutline, PayCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTopic } from '../../api/live';
import { useAccountFiguresQuery, useLiveAccountQuery } from '../../api/queries/account';
import { Paths } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { ErrorState } from '../../components/states';
import { formatMoney } from '../../i18n/format';
import { walletFigures, type WalletFigures } from './walletFigures';
import './wallet.css';

/** The figures under the balance, in the order a trader reads them: cash, then the positions' effect. */
const ROWS = [
  { field: 'locked', labelKey: 'wallet.locked', testId: 'wallet-locked' },
  { field: 'equity', labelKey: 'wallet.equity', testId: 'wallet-equity' },
  { field: 'usedMargin', labelKey: 'wallet.used_margin', testId: 'wallet-used-margin' },
  { field: 'freeMargin', labelKey: 'wallet.free_margin', testId: 'wallet-free-margin' },
] as const satisfies readonly { field: keyof WalletFigures; labelKey: string; testId: string }[];

export default function WalletPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const figures = useAccountFiguresQuery();
  const live = useLiveAccountQuery();
  // Fills and closes refetch the figures from the app shell; the price moves come with this push.
  useTopic(SocketTopic.forexTrade);
  const shown = figures.data ? walletFigures(figures.data, live.data) : null;

  return (
    <Screen title={t('wallet.title')} back>
      {figures.isError && !shown ? (
        <ErrorState onRetry={() => void figures.refetch()} />
      ) : (
        <section className="wallet-card" aria-label={t('wallet.figures')} aria-busy={!shown}>
          <p className="label">{t('wallet.balance')}</p>
          <Figure className="wallet-balance" testId="wallet-balance" value={shown?.balance} />
          <dl className="wallet-figures">
            <div className="wallet-withdrawable">
              <dt className="label">{t('wallet.withdrawable')}</dt>
              <dd>
                <Figure testId="wallet-withdrawable" value={shown?.withdrawable} />
              </dd>
              <dd className="wallet-hint">{t('wallet.withdrawable_hint')}</dd>
            </div>
            {ROWS.map((row) => (
              <div key={row.field}>
                <dt className="label">{t(row.labelKey)}</dt>
                <dd>
                  <Figure testId={row.testId} value={shown?.[row.field]} />
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <div className="wallet-actions">
        <Button color="primary" size="large" onClick={() => void navigate(Paths.charge)}>
          {t('wallet.deposit')}
        </Button>
        <Button size="large" onClick={() => void navigate(Paths.withdraw)}>
          {t('wallet.withdraw')}
        </Button>
      </div>

      <nav aria-label={t('wallet.title')}>
        <List className="wallet-links">
          <List.Item prefix={<BillOutline />} onClick={() => void navigate(Paths.history)}>
            {t('wallet.history')}
          </List.Item>
          <List.Item prefix={<PayCircleOutline />} onClick={() => void navigate(Paths.coinAddressList)}>
            {t('wallet.coin_addresses')}
          </List.Item>
          <List.Item prefix={<BankcardOutline />} onClick={() => void navigate(Paths.bankCardList)}>
            {t('wallet.bank_cards')}
          </List.Item>
        </List>
      </nav>
    </Screen>
  );
}

/** A money figure in a box of fixed width, so a ticking value moves no neighbour; a skeleton until loaded. */
function Figure({ value, testId, className }: { value: number | undefined; testId: string; className?: string }) {
  if (value === undefined) return <Skeleton animated className={`wallet-figure-skeleton${className ? ` ${className}` : ''}`} />;
  return (
    <span className={`num wallet-figure${className ? ` ${className}` : ''}`} data-testid={testId}>
      {formatMoney(value)}
    </span>
  );
}
