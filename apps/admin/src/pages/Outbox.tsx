import type { OutboxMessageView, OutboxPageView } from '@pipwise/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { formatDateTime } from '../components/BackOfficeStates';
import { ListTable, usePager } from '../components/ListTable';
import { PageHeader } from '../components/PageHeader';

/** Mail and SMS the platform kept instead of sending, newest first; support reads them when a user says nothing came. */
export default function Outbox() {
  const { t } = useTranslation('outbox');
  const [destination, setDestination] = useState('');
  const { page, pageSize, setPage, pagination } = usePager();
  const list = useQuery({
    queryKey: ['outbox', destination, page, pageSize],
    queryFn: () => adminApi<OutboxPageView>('GET', '/outbox', { query: { destination, page, page_size: pageSize } }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const mail = list.data?.mail;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      {mail && (
        <Alert
          type={mail === 'outbox' ? 'warning' : 'info'}
          showIcon
          data-testid="outbox-mail"
          title={t(mail === 'outbox' ? 'mail_kept_notice' : 'mail_smtp_notice')}
        />
      )}
      <Input.Search
        aria-label={t('destination_filter')}
        placeholder={t('destination_placeholder')}
        allowClear
        enterButton={t('search')}
        style={{ maxWidth: 420 }}
        onSearch={(value) => {
          setDestination(value.trim());
          setPage(1);
        }}
      />
      <ListTable<OutboxMessageView>
        query={list}
        testId={(row) => row.id}
        rowKey="id"
        dataSource={rows}
        scroll={{ x: 900 }}
        expandable={{
          expandedRowRender: (row) => (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{row.body}</Typography.Paragraph>
          ),
        }}
        pagination={pagination(total)}
        columns={[
          { title: t('created_at'), dataIndex: 'created_at', width: 180, render: (value: string) => formatDateTime(value) },
          {
            title: t('channel'),
            dataIndex: 'channel',
            width: 100,
            render: (value: string) => (
              <Tag color={value === 'sms' ? 'purple' : 'blue'}>{t(`channel_${value}`, { defaultValue: value })}</Tag>
            ),
          },
          { title: t('destination'), dataIndex: 'destination', width: 240 },
          { title: t('subject'), dataIndex: 'subject' },
          {
            title: t('delivered'),
            dataIndex: 'kept_reason',
            width: 260,
            render: (reason: OutboxMessageView['kept_reason']) => (
              <Tag color="orange">{t(reason === 'no_sms_gateway' ? 'kept_no_sms_gateway' : 'kept_no_smtp_url')}</Tag>
            ),
          },
        ]}
      />
    </Space>
  );
}
