import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Input, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminApi, type Page } from '../api';
import { TABULAR, formatDateTime, formatDecimal } from '../components/BackOfficeStates';
import { ListTable, usePager } from '../components/ListTable';
import { UserDetail, type UserProfile } from '../components/UserDetail';
import { PageHeader } from '../components/PageHeader';

/** Users by uid, e-mail or phone; the detail opens in a drawer addressed by `?uid=` (linkable from Risk). */
export default function Users() {
  const { t } = useTranslation('users');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const selected = params.get('uid');
  const { page, pageSize, setPage, pagination } = usePager();

  const users = useQuery({
    queryKey: ['users', q, page, pageSize],
    queryFn: () => adminApi<Page<UserProfile>>('GET', '/users', { query: { q, page, page_size: pageSize } }),
    placeholderData: keepPreviousData,
  });

  const update = (next: Record<string, string | null>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      <Input.Search
        aria-label={t('search')}
        placeholder={t('search_placeholder')}
        defaultValue={q}
        allowClear
        enterButton={t('search')}
        style={{ maxWidth: 480 }}
        onSearch={(value) => {
          setPage(1);
          update({ q: value.trim() || null });
        }}
      />
      <ListTable<UserProfile>
        query={users}
        testId={(row) => row.uid}
        rowKey={(row) => String(row.uid)}
        dataSource={users.data?.data ?? []}
        scroll={{ x: 640 }}
        onRow={(row) => ({ onClick: () => update({ uid: String(row.uid) }), style: { cursor: 'pointer' } })}
        pagination={pagination(users.data?.total ?? 0)}
        columns={[
          { title: t('field_uid'), dataIndex: 'uid' },
          { title: t('field_email'), dataIndex: 'email', render: (value?: string | null) => value || '—' },
          {
            title: t('field_phone'),
            dataIndex: 'phone',
            render: (value: string | null | undefined, row) =>
              value ? `${row.area_code ? `+${row.area_code} ` : ''}${value}` : '—',
          },
          {
            title: t('field_balance'),
            dataIndex: 'balance',
            align: 'right',
            render: (value?: number) => <span style={TABULAR}>{formatDecimal(value, 2)}</span>,
          },
          {
            title: t('kyc'),
            dataIndex: 'kyc_status',
            render: (value?: number) => (value === undefined ? '—' : t(`kyc_status_${value}`, { defaultValue: String(value) })),
          },
          {
            title: t('freezes'),
            dataIndex: 'freezes',
            render: (freezes?: UserProfile['freezes']) => (
              <Space size={4} wrap>
                {(['login', 'trading', 'withdrawals'] as const)
                  .filter((key) => freezes?.[key])
                  .map((key) => (
                    <Tag key={key} color="red">
                      {t(`freeze_${key}`)}
                    </Tag>
                  ))}
                {freezes && !freezes.login && !freezes.trading && !freezes.withdrawals ? '—' : null}
              </Space>
            ),
          },
          { title: t('field_created_at'), dataIndex: 'created_at', render: (value?: string) => formatDateTime(value) },
          {
            title: t('actions'),
            key: 'actions',
            render: (_, row) => (
              <Button size="small" onClick={() => update({ uid: String(row.uid) })}>
                {t('open')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={selected !== null}
        onClose={() => update({ uid: null })}
        size="min(960px, 100vw)"
        title={t('detail_title', { uid: selected })}
        destroyOnHidden
      >
        {selected !== null && <UserDetail uid={selected} />}
      </Drawer>
    </Space>
  );
}
