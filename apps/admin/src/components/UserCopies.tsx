import type { CopyAdminView } from '@pipwise/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, type Page } from '../api';
import { TABULAR, formatDateTime, formatDecimal, pnlColor } from './BackOfficeStates';
import { ListTable, usePager } from './ListTable';

type Side = 'follower' | 'provider';

/** The user's copy-trading relations: the providers they copy, or the followers copying them. */
export function UserCopies({ uid }: { uid: string }) {
  const { t } = useTranslation('copy');
  const [side, setSide] = useState<Side>('follower');
  const { page, pageSize, setPage, pagination } = usePager();
  const copies = useQuery({
    queryKey: ['user', uid, 'copies', side, page, pageSize],
    queryFn: () =>
      adminApi<Page<CopyAdminView>>('GET', `/users/${encodeURIComponent(uid)}/copies`, {
        query: { side, page, page_size: pageSize },
      }),
    placeholderData: keepPreviousData,
  });
  const money = (value: number) => <span style={TABULAR}>{formatDecimal(value, 2)}</span>;

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Segmented<Side>
        value={side}
        onChange={(value) => {
          setSide(value);
          setPage(1);
        }}
        options={[
          { value: 'follower', label: t('as_follower') },
          { value: 'provider', label: t('as_provider') },
        ]}
      />
      <ListTable<CopyAdminView>
        query={copies}
        testId={(row) => row.id}
        rowKey={(row) => String(row.id)}
        dataSource={copies.data?.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={pagination(copies.data?.total ?? 0)}
        columns={[
          { key: 'id', title: t('copy_id'), dataIndex: 'id' },
          side === 'follower'
            ? {
                key: 'provider',
                title: t('provider'),
                render: (_, row) => (
                  <span translate="no">
                    {row.nickname} · {row.provider_uid}
                  </span>
                ),
              }
            : { key: 'follower', title: t('follower'), dataIndex: 'follower_uid' },
          { key: 'amount', title: t('amount'), align: 'right', render: (_, row) => money(row.amount) },
          { key: 'stop_loss', title: t('stop_loss_pct'), align: 'right', render: (_, row) => `${row.stop_loss_pct} %` },
          {
            key: 'status',
            title: t('status'),
            render: (_, row) => (
              <Space size={4} wrap>
                <Tag color={row.status === 'stopped' ? undefined : 'success'}>{t(`copy_status_${row.status}`)}</Tag>
                {row.stop_reason && <Tag>{t(`stop_reason_${row.stop_reason}`)}</Tag>}
                {row.keep_positions && <Tag color="blue">{t('kept_positions')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'realised',
            title: t('realised'),
            align: 'right',
            render: (_, row) => (
              <span style={{ ...TABULAR, color: pnlColor(row.realised) }}>{formatDecimal(row.realised, 2)}</span>
            ),
          },
          { key: 'fees', title: t('fees_paid'), align: 'right', render: (_, row) => money(row.fees_paid) },
          { key: 'created', title: t('started_at'), render: (_, row) => formatDateTime(row.created_at) },
          { key: 'stopped', title: t('stopped_at'), render: (_, row) => formatDateTime(row.stopped_at) },
        ]}
      />
    </Space>
  );
}
