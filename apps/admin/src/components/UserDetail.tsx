import { OrderStatus, type PayoutWarningView } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Popconfirm, Select, Skeleton, Space, Switch, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { useSession } from '../session';
import { LoadError, TABULAR, errorText, formatDateTime, formatDecimal, pnlColor } from './BackOfficeStates';
import { PayoutWarnings } from './PayoutWarnings';
import { UserCopies } from './UserCopies';
import { UserPagedTable } from './UserPagedTable';

const FREEZES = ['login', 'trading', 'withdrawals'] as const;
type Freeze = (typeof FREEZES)[number];
const FIGURES = ['balance', 'locked', 'equity', 'used_margin', 'free_margin', 'floating_pnl', 'margin_level'] as const;

/** The user as GET /users/:uid answers: profile fields, figures, freezes and KYC. */
export interface UserProfile {
  uid: string | number;
  email?: string | null;
  phone?: string | null;
  created_at?: string;
  area_code?: string | null;
  is_demo?: boolean;
  balance?: number;
  figures?: Partial<Record<(typeof FIGURES)[number], number | null>>;
  freezes?: Partial<Record<Freeze, boolean>>;
  kyc?: { status?: number; name?: string | null; reason?: string | null; reviewed_by?: string | null } | null;
  invite?: { code?: string; invited_by_uid?: number | null; invited_count?: number };
  deposits_total?: number;
  withdrawals_total?: number;
  /** Shared coin addresses and payees not named as the verified owner, over the user's payout methods. */
  payout_warnings?: PayoutWarningView[];
  kyc_status?: number;
  [key: string]: unknown;
}

export function UserDetail({ uid }: { uid: string }) {
  const { t } = useTranslation('users');
  const user = useQuery({
    queryKey: ['user', uid],
    queryFn: () => adminApi<UserProfile>('GET', `/users/${encodeURIComponent(uid)}`),
  });
  const [orderStatus, setOrderStatus] = useState<string | undefined>(undefined);

  if (user.isPending) return <Skeleton active />;
  if (user.isError) return <LoadError error={user.error} onRetry={() => void user.refetch()} />;

  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'overview', label: t('tab_overview'), children: <Overview user={user.data} /> },
        {
          key: 'orders',
          label: t('tab_orders'),
          children: (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Select
                aria-label={t('order_status')}
                allowClear
                placeholder={t('order_status')}
                style={{ width: 200 }}
                value={orderStatus}
                onChange={setOrderStatus}
                options={Object.values(OrderStatus).map((status) => ({
                  value: String(status),
                  label: t(`order_status_${status}`),
                }))}
              />
              <UserPagedTable uid={uid} list="orders" query={{ status: orderStatus }} />
            </Space>
          ),
        },
        { key: 'ledger', label: t('tab_ledger'), children: <UserPagedTable uid={uid} list="ledger" /> },
        { key: 'deposits', label: t('tab_deposits'), children: <UserPagedTable uid={uid} list="deposits" /> },
        { key: 'withdrawals', label: t('tab_withdrawals'), children: <UserPagedTable uid={uid} list="withdrawals" /> },
        { key: 'sessions', label: t('tab_sessions'), children: <UserPagedTable uid={uid} list="sessions" /> },
        { key: 'copies', label: t('tab_copies'), children: <UserCopies uid={uid} /> },
      ]}
    />
  );
}

function Overview({ user }: { user: UserProfile }) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const { may } = useSession();
  const queryClient = useQueryClient();
  const uid = String(user.uid);

  const freeze = useMutation({
    mutationFn: (change: Partial<Record<Freeze, boolean>>) =>
      adminApi('POST', `/users/${encodeURIComponent(uid)}/freeze`, { body: change }),
    onSuccess: () => {
      void message.success(t('common:saved'));
      void queryClient.invalidateQueries({ queryKey: ['user', uid] });
    },
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });
  const revoke = useMutation({
    mutationFn: () => adminApi('POST', `/users/${encodeURIComponent(uid)}/revoke-sessions`),
    onSuccess: () => {
      void message.success(t('sessions_revoked'));
      void queryClient.invalidateQueries({ queryKey: ['user', uid, 'sessions'] });
    },
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });

  const kycStatus = user.kyc?.status ?? user.kyc_status;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {user.payout_warnings && user.payout_warnings.length > 0 && (
        <section aria-label={t('payout_warnings')}>
          <PayoutWarnings warnings={user.payout_warnings} />
        </section>
      )}
      <Descriptions size="small" bordered column={{ xs: 1, md: 2 }} title={t('profile')}>
        <Descriptions.Item label={t('field_uid')}>{String(user.uid)}</Descriptions.Item>
        <Descriptions.Item label={t('field_email')}>{user.email || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('field_phone')}>
          {user.phone ? `${user.area_code ? `+${user.area_code} ` : ''}${user.phone}` : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('field_account_type')}>{t(user.is_demo ? 'account_demo' : 'account_real')}</Descriptions.Item>
        <Descriptions.Item label={t('field_lang')}>{typeof user.lang === 'string' ? user.lang : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('field_created_at')}>{formatDateTime(user.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('field_deposits_total')}>
          <span style={TABULAR}>{formatDecimal(user.deposits_total, 2)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('field_withdrawals_total')}>
          <span style={TABULAR}>{formatDecimal(user.withdrawals_total, 2)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('field_invite')}>
          {user.invite?.code ?? '—'}
          {user.invite?.invited_by_uid ? ` · ${t('invited_by', { uid: user.invite.invited_by_uid })}` : ''}
          {user.invite?.invited_count ? ` · ${t('invited_count', { count: user.invite.invited_count })}` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('kyc')}>
          {kycStatus === undefined ? '—' : <Tag>{t(`kyc_status_${kycStatus}`, { defaultValue: String(kycStatus) })}</Tag>}
          {user.kyc?.name ? ` ${user.kyc.name}` : ''}
          {user.kyc?.reason ? ` · ${user.kyc.reason}` : ''}
        </Descriptions.Item>
      </Descriptions>

      <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }} title={t('figures')}>
        {FIGURES.map((key) => (
          <Descriptions.Item key={key} label={t(`field_${key}`)}>
            <span
              style={{ ...TABULAR, color: key === 'floating_pnl' ? pnlColor(user.figures?.[key]) : undefined }}
              data-testid={`figure-${key}`}
            >
              {key === 'margin_level'
                ? user.figures?.margin_level === null || user.figures?.margin_level === undefined
                  ? '—'
                  : `${formatDecimal(user.figures.margin_level, 2)} %`
                : formatDecimal(user.figures?.[key], 2)}
            </span>
          </Descriptions.Item>
        ))}
      </Descriptions>

      <Card size="small" title={t('freezes')}>
        <Space wrap size="large">
          {FREEZES.map((key) => {
            const frozen = Boolean(user.freezes?.[key]);
            return (
              <Popconfirm
                key={key}
                title={t(frozen ? `unfreeze_${key}_confirm` : `freeze_${key}_confirm`)}
                okText={t('common:confirm')}
                cancelText={t('common:cancel')}
                onConfirm={() => freeze.mutateAsync({ [key]: !frozen })}
              >
                <Space>
                  <Switch
                    checked={frozen}
                    loading={freeze.isPending && freeze.variables?.[key] !== undefined}
                    aria-label={t(`freeze_${key}`)}
                    data-testid={`freeze-${key}`}
                  />
                  <span>{t(`freeze_${key}`)}</span>
                </Space>
              </Popconfirm>
            );
          })}
          {may(['support']) && (
            <Popconfirm
              title={t('revoke_sessions_confirm')}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              onConfirm={() => revoke.mutateAsync()}
            >
              <Button danger loading={revoke.isPending}>
                {t('revoke_sessions')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Card>
    </Space>
  );
}
