import { CashierType } from '@pipwise/domain';
import { Tabs, Toast } from 'antd-mobile';
import { UnorderedListOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { chargeRecordsPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { CoinDeposit } from './CoinDeposit';
import { WireDeposit } from './WireDeposit';
import './charge.css';

/** `/mine/charge?type=2` opens the bank wire tab; coin otherwise. */
export default function ChargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const type = params.get('type') === String(CashierType.bank) ? CashierType.bank : CashierType.coin;

  const done = () => {
    Toast.show({ icon: 'success', content: t('charge.submitted') });
    void navigate(chargeRecordsPath(type));
  };

  return (
    <Screen
      title={t('charge.title')}
      back
      right={
        <button
          type="button"
          className="icon-button charge-records-link"
          aria-label={t('charge.records')}
          onClick={() => void navigate(chargeRecordsPath(type))}
        >
          <UnorderedListOutline aria-hidden="true" />
        </button>
      }
    >
      <Tabs className="charge-tabs" activeKey={String(type)} onChange={(key) => setParams({ type: key }, { replace: true })}>
        <Tabs.Tab key={String(CashierType.coin)} title={t('charge.tab_coin')} />
        <Tabs.Tab key={String(CashierType.bank)} title={t('charge.tab_wire')} />
      </Tabs>
      {type === CashierType.coin ? <CoinDeposit onDone={done} /> : <WireDeposit onDone={done} />}
    </Screen>
  );
}
