import type { FeedbackAdminView, OperatorPageView } from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { errorText, formatDateTime } from '../components/BackOfficeStates';
import { ListTable } from '../components/ListTable';
import { FeedbackAttachment } from '../components/FeedbackAttachment';
import { PageHeader } from '../components/PageHeader';

export default function Feedback() {
  const { t } = useTranslation('feedback');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<0 | 1>(0);
  const [page, setPage] = useState(1);

  const list = useQuery({
    queryKey: ['feedback', status, page],
    queryFn: () => adminApi<OperatorPageView<FeedbackAdminView>>('GET', '/feedback', { query: { status, page } }),
    placeholderData: keepPreviousData,
  });
  const handled = useMutation({
    mutationFn: (id: number) => adminApi('POST', `/feedback/${id}/handled`),
    onSuccess: () => {
      void message.success(t('marked_handled'));
      void queryClient.invalidateQueries({ queryKey: ['feedback'] });
    },
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={t('title')}>
        <Segmented<0 | 1>
          aria-label={t('filter_status')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={[
            { value: 0, label: t('status_0') },
            { value: 1, label: t('status_1') },
          ]}
        />
      </PageHeader>
      <ListTable<FeedbackAdminView>
        query={list}
        testId={(row) => row.id}
        rowKey="id"
        dataSource={list.data?.data ?? []}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize: list.data?.page_size,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        columns={[
          { title: t('created_at'), dataIndex: 'created_at', width: 180, render: (value: string) => formatDateTime(value) },
          {
            title: t('category'),
            dataIndex: 'category',
            width: 120,
            render: (value: string) => <Tag>{t(`category_${value}`, { defaultValue: value })}</Tag>,
          },
          {
            title: t('text'),
            dataIndex: 'text',
            render: (value: string) => (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{value}</Typography.Paragraph>
            ),
          },
          {
            title: t('from'),
            key: 'from',
            width: 200,
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{row.uid ?? t('visitor')}</span>
                {row.contact && <Typography.Text type="secondary">{row.contact}</Typography.Text>}
                <Typography.Text type="secondary">{row.lang}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('attachment'),
            dataIndex: 'upload_id',
            width: 120,
            render: (value: string | null) => (value ? <FeedbackAttachment uploadId={value} /> : '—'),
          },
          {
            title: t('actions'),
            key: 'actions',
            width: 140,
            render: (_, row) =>
              row.status === 0 ? (
                <Popconfirm
                  title={t('mark_handled_confirm')}
                  okText={t('common:confirm')}
                  cancelText={t('common:cancel')}
                  onConfirm={() => handled.mutateAsync(row.id)}
                >
                  <Button size="small" type="primary" aria-label={t('mark_handled_row', { id: row.id })}>
                    {t('mark_handled')}
                  </Button>
                </Popconfirm>
              ) : (
                <Tag color="green">{t('status_1')}</Tag>
              ),
          },
        ]}
      />
    </Space>
  );
}
