import {
  ResponseCode,
  ZDepositDecisionRequest,
  ZIdentityRejectRequest,
  ZWithdrawalDecisionRequest,
  type CashierEventView,
  type ReviewQueue as QueueName,
  type ReviewClaimView,
  type ReviewContextView,
} from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Col, Drawer, Input, Row, Select, Space, Tag, Timeline } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, ApiError, type Page } from '../api';
import { useSession } from '../session';
import { formatDateTime } from './DateTime';
import { AMOUNT_PATTERN, amountFromText, formatMoney } from './Money';
import { PagedTable } from './PagedTable';
import { errorMessage } from './QueryError';
import { ReviewReasonModal, type RefusalSchema } from './ReviewReasonModal';
import { UserSummary } from './UserSummary';
import { PageHeader } from './PageHeader';

type Refusal = 'reject' | 'void';

/** A refusal's request in each queue, as the server parses it. */
const DECISION_SCHEMAS: Record<QueueName, RefusalSchema> = {
  deposits: ZDepositDecisionRequest,
  withdrawals: ZWithdrawalDecisionRequest,
  kyc: ZIdentityRejectRequest,
};

export interface ReviewQueueProps<T extends ReviewContextView> {
  queue: QueueName;
  title: string;
  /** The status filter's choices; the first is the one waiting for a decision and the default. */
  statuses: { value: number; label: string }[];
  idOf: (item: T) => number;
  statusOf: (item: T) => number;
  columns: ColumnsType<T>;
  /** The item itself in the drawer (images, fields); rendered as an element so it may use hooks. */
  detail: (item: T) => ReactNode;
  /** Refusals offered besides approval (each asks a reason). */
  refusals: Refusal[];
  /** When set, approval asks the amount to credit, defaulting to this one (deposits). */
  approveAmount?: (item: T) => number;
  /** Why this operator may not approve this item (four-eyes), or null. */
  approveBlocked?: (item: T, me: string) => string | null;
}

const PAGE_SIZE = 20;

const DECISION_BAR: CSSProperties = {
  position: 'sticky',
  bottom: 0,
  paddingBlock: 12,
  background: 'var(--ant-color-bg-elevated, #fff)',
  borderTop: '1px solid var(--ant-color-split, #f0f0f0)',
  zIndex: 1,
};

/** An operator as the server names them in records (`operator:<email>`, the audit actor) or by e-mail. */
export const operatorName = (actor: string) => actor.replace(/^operator:/, '');

const liveClaim = (claim: ReviewClaimView | null | undefined) =>
  claim && dayjs(claim.expires_at).isAfter(dayjs()) ? claim : null;

/**
 * A review queue: the server's paged list with a status filter and a uid search, and a drawer with the
 * selected item, its user's account, the claim, and the decisions. The server decides every rule again;
 * a decision someone else made first (1009) is shown and the row refreshed.
 */
export function ReviewQueue<T extends ReviewContextView>(props: ReviewQueueProps<T>) {
  const { queue, statuses, idOf, statusOf } = props;
  const { t } = useTranslation('reviews');
  const { message } = App.useApp();
  const [status, setStatus] = useState(statuses[0]?.value ?? 0);
  const [uid, setUid] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<T | null>(null);
  const listKey = ['review', queue, status, uid, page] as const;
  const list = useQuery({
    queryKey: listKey,
    queryFn: () =>
      adminApi<Page<T>>('GET', `/${queue}`, { query: { status, uid: uid || undefined, page, page_size: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  // The drawer shows the freshest copy of the selected item while it is still in the list.
  const current = selected ? (list.data?.data.find((item) => idOf(item) === idOf(selected)) ?? selected) : null;

  const columns: ColumnsType<T> = [
    ...props.columns,
    {
      key: 'claim',
      title: t('claim'),
      render: (_, item) => {
        const claim = liveClaim(item.claim);
        return claim ? <Tag color="orange">{t('held_by_short', { operator: claim.operator })}</Tag> : null;
      },
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <PageHeader title={props.title} />
      <Space wrap>
        <Select
          aria-label={t('status_filter')}
          value={status}
          options={statuses}
          style={{ minWidth: 180 }}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
        />
        <Input.Search
          aria-label={t('uid_search')}
          placeholder={t('uid_search')}
          allowClear
          enterButton={t('search')}
          onSearch={(value) => {
            const text = value.trim();
            if (text && !/^\d+$/.test(text)) {
              void message.error(t('uid_invalid'));
              return;
            }
            setUid(text);
            setPage(1);
          }}
          style={{ width: 280 }}
        />
      </Space>
      <PagedTable<T>
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        emptyText={t('queue_empty')}
        idOf={idOf}
        columns={columns}
        onRow={(item) => ({ onClick: () => setSelected(item), style: { cursor: 'pointer' } })}
      />
      <Drawer
        open={current !== null}
        onClose={() => setSelected(null)}
        title={current ? t('item_title', { id: idOf(current) }) : ''}
        size={Math.min(1000, window.innerWidth)}
        destroyOnHidden
      >
        {current && (
          <ReviewPanel
            key={idOf(current)}
            {...props}
            item={current}
            pending={statusOf(current) === statuses[0]?.value}
            onDecided={(next) => (next && statusOf(next) === statuses[0]?.value ? setSelected(next) : setSelected(null))}
          />
        )}
      </Drawer>
    </Space>
  );
}

function ReviewPanel<T extends ReviewContextView>(
  props: ReviewQueueProps<T> & { item: T; pending: boolean; onDecided: (next: T | null) => void },
) {
  const { queue, item, idOf, pending } = props;
  const { t } = useTranslation('reviews');
  const { message } = App.useApp();
  const { operator } = useSession();
  const queryClient = useQueryClient();
  const me = operator?.email ?? '';
  const id = idOf(item);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [amount, setAmount] = useState(() =>
    props.approveAmount ? formatMoney(props.approveAmount(item)).replaceAll(',', '') : '',
  );

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['review', queue] });
  const failed = (error: unknown) => {
    void message.error(errorMessage(error, t('common:server_error')));
    // Someone else decided or holds it: show the row as it is now.
    if (error instanceof ApiError && error.code === ResponseCode.conflict) void refresh();
  };

  const claim = useMutation({
    mutationFn: (take: boolean) => adminApi(take ? 'POST' : 'DELETE', `/claims/${queue}/${id}`),
    onSuccess: (_, take) => {
      void message.success(take ? t('claimed') : t('released'));
      void refresh();
    },
    onError: failed,
  });
  const decide = useMutation({
    mutationFn: ({ action, body }: { action: 'approve' | Refusal; body?: unknown }) =>
      adminApi<T | null>('POST', `/${queue}/${id}/${action}`, { body: body ?? {} }),
    onSuccess: (result, { action }) => {
      const next = result && typeof result === 'object' ? { ...item, ...result } : null;
      const stillPending = next !== null && props.statusOf(next) === props.statuses[0]?.value;
      void message.success(action === 'approve' && stillPending ? t('first_approval_recorded') : t(`done_${action}`));
      setRefusal(null);
      props.onDecided(next);
      void refresh();
    },
    onError: (error) => {
      failed(error);
      // Every refused decision's conflict means another operator decided first: its buttons are stale.
      if (error instanceof ApiError && error.code === ResponseCode.conflict) {
        setRefusal(null);
        props.onDecided(null);
      }
    },
  });

  const busy = claim.isPending || decide.isPending;
  const held = liveClaim(item.claim);
  const heldByOther = held !== null && held.operator !== me;
  const blocked = props.approveBlocked?.(item, me) ?? null;
  const amountValid = !props.approveAmount || (AMOUNT_PATTERN.test(amount.trim()) && amountFromText(amount) > 0);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={14}>
          {props.detail(item)}
        </Col>
        <Col xs={24} lg={10}>
          <UserSummary user={item.user} />
        </Col>
      </Row>
      {pending ? (
        // Kept in view at the bottom of the drawer: on a tablet the images and the account come first.
        <Space orientation="vertical" style={{ width: '100%', ...DECISION_BAR }}>
          {heldByOther && (
            <Alert
              type="warning"
              showIcon
              title={t('held_by', { operator: held.operator, until: formatDateTime(held.expires_at) })}
            />
          )}
          {held && !heldByOther && (
            <Alert type="info" showIcon title={t('held_by_you', { until: formatDateTime(held.expires_at) })} />
          )}
          {blocked && <Alert type="warning" showIcon title={blocked} />}
          <Space wrap>
            {/* Keyed apart: reused, the button that just claimed would pass its fading spinner (and the
                spinner's "loading" label) on to Release. */}
            {held && !heldByOther ? (
              <Button key="release" onClick={() => claim.mutate(false)} loading={claim.isPending} disabled={busy}>
                {t('release')}
              </Button>
            ) : (
              <Button key="claim" onClick={() => claim.mutate(true)} loading={claim.isPending} disabled={busy || heldByOther}>
                {t('claim_action')}
              </Button>
            )}
            {props.approveAmount && (
              <Space.Compact>
                <Space.Addon>{t('credited_amount')}</Space.Addon>
                <Input
                  aria-label={t('credited_amount')}
                  value={amount}
                  onChange={(event) => setAmount(event.target.value)}
                  status={amountValid ? undefined : 'error'}
                  inputMode="decimal"
                  style={{ width: 160 }}
                  disabled={busy || heldByOther}
                />
              </Space.Compact>
            )}
            <Button
              type="primary"
              loading={decide.isPending && decide.variables?.action === 'approve'}
              disabled={busy || heldByOther || blocked !== null || !amountValid}
              onClick={() =>
                decide.mutate({ action: 'approve', body: props.approveAmount ? { credited_amount: amountFromText(amount) } : {} })
              }
            >
              {t('approve')}
            </Button>
            {props.refusals.map((action) => (
              <Button key={action} danger disabled={busy || heldByOther} onClick={() => setRefusal(action)}>
                {t(action)}
              </Button>
            ))}
          </Space>
        </Space>
      ) : (
        <Alert type="info" showIcon title={t('already_decided')} />
      )}
      <ReviewReasonModal
        open={refusal !== null}
        title={refusal ? t(`${refusal}_title`) : ''}
        okText={refusal ? t(refusal) : ''}
        pending={decide.isPending}
        forClient
        schema={DECISION_SCHEMAS[queue]}
        onClose={() => setRefusal(null)}
        onSubmit={(words) => refusal && decide.mutate({ action: refusal, body: { ...words } })}
      />
    </Space>
  );
}

/** A status as a coloured tag: waiting, done, refused, voided. */
export function StatusTag({ status, label }: { status: number; label: string }) {
  const colour = ['processing', 'success', 'error', 'default'][status] ?? 'default';
  return <Tag color={colour}>{label}</Tag>;
}

/** A deposit's or withdrawal's history, oldest first: when, the status it reached, and the operator's note. */
export function StatusTimeline({ events, label }: { events: CashierEventView[] | undefined; label: (status: number) => string }) {
  return (
    <Timeline
      items={(events ?? []).map((event) => ({
        key: `${event.status}-${event.created_at}`,
        content: `${formatDateTime(event.created_at)} · ${label(event.status)}${event.note ? ` · ${event.note}` : ''}`,
      }))}
    />
  );
}
