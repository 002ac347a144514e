import { RealNameStatus, type IdentityCardIdView, type IdentityQueueItemView } from '@pipwise/domain';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { DateTime } from '../components/DateTime';
import { ProofImage } from '../components/ProofImage';
import { errorMessage } from '../components/QueryError';
import { ReviewQueue, StatusTag } from '../components/ReviewQueue';

// Under review first (the default filter), then the decided ones.
const STATUSES = [RealNameStatus.underReview, RealNameStatus.verified, RealNameStatus.none];
// StatusTag colours by position: waiting, done, refused.
const TAG_ORDER: Record<number, number> = {
  [RealNameStatus.underReview]: 0,
  [RealNameStatus.verified]: 1,
  [RealNameStatus.none]: 2,
};

/** Identity submissions waiting for compliance: both sides of the ID, the account, approve or send back with a reason. */
export default function KycQueue() {
  const { t } = useTranslation('reviews');
  const statusLabel = (status: number) => t(`kyc_review_${status}`);
  return (
    <ReviewQueue<IdentityQueueItemView>
      queue="kyc"
      title={t('kyc_title')}
      statuses={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
      idOf={(item) => item.user_id}
      statusOf={(item) => item.review_status}
      refusals={['reject']}
      columns={[
        { key: 'uid', title: t('uid'), render: (_, item) => item.uid },
        { key: 'name', title: t('legal_name'), dataIndex: 'name' },
        { key: 'card', title: t('id_number'), dataIndex: 'card_id_masked' },
        {
          key: 'status',
          title: t('status'),
          render: (_, item) => <StatusTag status={TAG_ORDER[item.review_status] ?? 3} label={statusLabel(item.review_status)} />,
        },
        { key: 'submitted', title: t('submitted_at'), render: (_, item) => <DateTime value={item.submitted_at} /> },
      ]}
      detail={(item) => <KycDetail item={item} />}
    />
  );
}

function KycDetail({ item }: { item: IdentityQueueItemView }) {
  const { t } = useTranslation('reviews');
  // Each reveal is one audited call; the number stays only in this panel's memory.
  const reveal = useMutation({
    mutationFn: () => adminApi<IdentityCardIdView>('GET', `/kyc/${item.user_id}/card_id`),
  });
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[12, 12]}>
        <Col xs={24} md={12}>
          <Card size="small" title={t('id_front')}>
            <ProofImage src={item.front_url} alt={t('id_front')} width="100%" />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={t('id_back')}>
            <ProofImage src={item.reverse_url} alt={t('id_back')} width="100%" />
          </Card>
        </Col>
      </Row>
      <Descriptions
        size="small"
        bordered
        column={1}
        items={[
          { key: 'name', label: t('legal_name'), children: item.name },
          {
            key: 'card',
            label: t('id_number'),
            children: (
              <Space wrap>
                <Typography.Text code data-testid="card-id">
                  {reveal.data?.card_id ?? item.card_id_masked}
                </Typography.Text>
                {!reveal.data && (
                  <Button size="small" onClick={() => reveal.mutate()} loading={reveal.isPending}>
                    {t('reveal_id')}
                  </Button>
                )}
                {reveal.isError && (
                  <Typography.Text type="danger">{errorMessage(reveal.error, t('common:server_error'))}</Typography.Text>
                )}
              </Space>
            ),
          },
          { key: 'reason', label: t('last_reason'), children: item.reason ?? '—' },
          { key: 'internal_note', label: t('internal_note'), children: item.internal_note ?? '—' },
          { key: 'submitted', label: t('submitted_at'), children: <DateTime value={item.submitted_at} /> },
        ]}
      />
      {reveal.data && <Typography.Text type="secondary">{t('reveal_audited')}</Typography.Text>}
    </Space>
  );
}
