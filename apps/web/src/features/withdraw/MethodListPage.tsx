import { CashierType, type CashierTypeValue, type DrawMethodView } from '@pipwise/domain';
import { Button, Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDeleteDrawMethodMutation, useDrawMethodsQuery } from '../../api/queries/withdraw';
import { withdrawWayPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime } from '../../i18n/format';
import { currencyName, methodDestination } from './shared';

/** The user's coin addresses (`type` 1) or bank accounts (2); each may be deleted after a confirmation. */
export function MethodListPage({ type }: { type: CashierTypeValue }) {
  const { t } = useTranslation();
  const methods = useDrawMethodsQuery(type);
  const coin = type === CashierType.coin;
  const addLink = (
    <Link className="wd-link" to={withdrawWayPath(type)}>
      {t(coin ? 'withdraw.add_address' : 'withdraw.add_bank')}
    </Link>
  );

  return (
    <Screen title={t(coin ? 'withdraw.coin_list_title' : 'withdraw.bank_list_title')} back>
      <div className="wd-form">
        {methods.isPending ? (
          <ListSkeleton />
        ) : methods.isError ? (
          <ErrorState onRetry={() => void methods.refetch()} />
        ) : methods.data.length === 0 ? (
          <div className="wd-empty">
            <EmptyState text={t(coin ? 'withdraw.no_addresses' : 'withdraw.no_banks')} />
            {addLink}
          </div>
        ) : (
          <>
            <ul className="wd-list" aria-label={t(coin ? 'withdraw.coin_list_title' : 'withdraw.bank_list_title')}>
              {methods.data.map((method) => (
                <MethodRow key={method.id} method={method} />
              ))}
            </ul>
            {addLink}
          </>
        )}
      </div>
    </Screen>
  );
}

function MethodRow({ method }: { method: DrawMethodView }) {
  const { t } = useTranslation();
  const remove = useDeleteDrawMethodMutation();
  const destination = methodDestination(method);

  const confirmDelete = () =>
    void Dialog.confirm({
      content: t('withdraw.delete_confirm', { destination }),
      confirmText: t('withdraw.delete'),
      cancelText: t('common.cancel'),
      onConfirm: async () => {
        await remove.mutateAsync(method.id);
        Toast.show({ icon: 'success', content: t('withdraw.deleted') });
      },
    });

  return (
    <li className="wd-row">
      <div className="wd-row-main">
        <strong>{currencyName(method.draw_currency)}</strong>
        {method.type === CashierType.bank && method.payee_name && <span>{method.payee_name}</span>}
        <bdi className="wd-destination">{destination}</bdi>
        {!method.usable && (
          <span className="wd-cooldown">{t('withdraw.usable_from', { time: formatDateTime(method.usable_at) })}</span>
        )}
      </div>
      <Button
        size="small"
        color="danger"
        fill="outline"
        onClick={confirmDelete}
        aria-label={t('withdraw.delete_named', { destination })}
      >
        {t('withdraw.delete')}
      </Button>
    </li>
  );
}

export function CoinAddressListPage() {
  return <MethodListPage type={CashierType.coin} />;
}

export function BankCardListPage() {
  return <MethodListPage type={CashierType.bank} />;
}
