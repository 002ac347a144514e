import { schemaErrors, SocketTopic, ZCopyEditRequest, type CopyActivityView, type CopyView } from '@pipwise/domain';
import { Button, Dialog, Input, Tag, Toast } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  copyKeys,
  useCopyActivityQuery,
  useEditCopyMutation,
  useMyCopiesQuery,
  usePauseCopyMutation,
  useUnfollowMutation,
} from '../../api/queries/copy';
import { ApiError } from '../../api/http';
import { useSocketMessage, useTopic } from '../../api/live';
import { Field } from '../../components/fields';
import { profitTone } from '../../components/market';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import {
  formatDateTime,
  formatLots,
  formatMoney,
  formatNumber,
  formatProfit,
  localizeFigure,
  plainFigure,
} from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { providerPath } from '../../routing/paths';
import { isolate } from './figures';
import { AutomatedTag, Figure, SheetForm, StopLossField } from './parts';
import './copy.css';

/** Live P&L moves with every FOREX_TRADE push; the copies are asked again at most this often. */
const LIVE_REFRESH_MS = 2_000;

/**
 * Fetches the copies again when something of them changed: a COPY activity line (copied, closed, stopped,
 * fee) at once, with its copy's activity; a FOREX_TRADE push (prices moved the P&L) at most every 2 s.
 */
function useLiveCopies() {
  const client = useQueryClient();
  const last = useRef(0);
  useTopic(SocketTopic.copy);
  useTopic(SocketTopic.forexTrade);
  const onActivity = useCallback(
    (data: unknown) => {
      const line = data as Partial<CopyActivityView> | null;
      void client.invalidateQueries({ queryKey: copyKeys.mine() });
      if (line?.copy_id) void client.invalidateQueries({ queryKey: copyKeys.activity(line.copy_id) });
    },
    [client],
  );
  const onPrices = useCallback(() => {
    const now = Date.now();
    if (now - last.current < LIVE_REFRESH_MS) return;
    last.current = now;
    void client.invalidateQueries({ queryKey: copyKeys.mine() });
  }, [client]);
  useSocketMessage(SocketTopic.copy, onActivity);
  useSocketMessage(SocketTopic.forexTrade, onPrices);
}

/** The user's copies with their live P&L, each with its activity, and the ways to change, pause or end it. */
export default function MyCopiesPage() {
  const { t } = useLazyTranslation('copy');
  const copies = useMyCopiesQuery();
  useLiveCopies();
  return (
    <Screen title={t('copy.my_copies')} back>
      {copies.isPending ? (
        <ListSkeleton rows={4} />
      ) : copies.isError ? (
        <ErrorState onRetry={() => void copies.refetch()} />
      ) : copies.data.length === 0 ? (
        <EmptyState text={t('copy.no_copies')} />
      ) : (
        <ul className="copy-mine" aria-label={t('copy.my_copies')}>
          {copies.data.map((copy) => (
            <li key={copy.id}>
              <CopyCard copy={copy} />
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}

function CopyCard({ copy }: { copy: CopyView }) {
  const { t } = useLazyTranslation('copy');
  const [editing, setEditing] = useState(false);
  const [showActivity, setShowActivity] = useState(false);
  const pause = usePauseCopyMutation();
  const unfollow = useUnfollowMutation();
  const stopped = copy.status === 'stopped';

  const askUnfollow = () => {
    Dialog.show({
      title: t('copy.unfollow_title', { name: isolate(copy.nickname) }),
      content: t('copy.unfollow_text'),
      closeOnAction: true,
      actions: [
        [
          { key: 'close_all', text: t('copy.unfollow_close_all'), danger: true },
          { key: 'keep', text: t('copy.unfollow_keep') },
        ],
        { key: 'cancel', text: t('copy.cancel') },
      ],
      onAction: (action) => {
        if (action.key !== 'close_all' && action.key !== 'keep') return;
        unfollow.mutate(
          { copy_id: copy.id, mode: action.key },
          {
            onSuccess: () => void Toast.show({ content: t('copy.unfollowed') }),
            onError: (error) => void Toast.show({ content: error instanceof ApiError ? error.message : t('copy.failed') }),
          },
        );
      },
    });
  };

  return (
    <article className="copy-card" aria-label={copy.nickname}>
      <div className="copy-row-head">
        <Link className="copy-nickname" to={providerPath(copy.provider_id)} translate="no" dir="auto">
          {copy.nickname}
        </Link>
        {copy.automated && <AutomatedTag />}
        <Tag color={copy.status === 'active' ? 'success' : copy.status === 'paused' ? 'warning' : 'default'}>
          {t(`copy.status_${copy.status}`)}
        </Tag>
      </div>
      {copy.stop_reason && <p className="copy-note">{t(`copy.stop_reason_${copy.stop_reason}`)}</p>}
      <div className="copy-grid">
        <Figure label={t('copy.pnl')} className={profitTone(copy.pnl)}>
          <span data-testid="copy-pnl">{formatProfit(copy.pnl)}</span>
        </Figure>
        <Figure label={t('copy.floating')} className={profitTone(copy.floating)}>
          {formatProfit(copy.floating)}
        </Figure>
        <Figure label={t('copy.realised')} className={profitTone(copy.realised)}>
          {formatProfit(copy.realised)}
        </Figure>
        <Figure label={t('copy.amount')}>{formatMoney(copy.amount)}</Figure>
        <Figure label={t('copy.stop_loss')}>{formatNumber(copy.stop_loss_pct, 0)}%</Figure>
        <Figure label={t('copy.open_positions')}>
          <span data-testid="copy-open-positions">{formatNumber(copy.open_positions, 0)}</span>
        </Figure>
        <Figure label={t('copy.fees_paid')}>{formatMoney(copy.fees_paid)}</Figure>
        <Figure label={t('copy.since')}>{formatDateTime(copy.created_at)}</Figure>
      </div>
      <div className="copy-card-actions">
        <Button size="small" fill="outline" onClick={() => setShowActivity((shown) => !shown)} aria-expanded={showActivity}>
          {t('copy.activity')}
        </Button>
        {!stopped && (
          <>
            <Button size="small" fill="outline" onClick={() => setEditing(true)}>
              {t('copy.edit')}
            </Button>
            <Button
              size="small"
              fill="outline"
              loading={pause.isPending}
              onClick={() =>
                pause.mutate(
                  { copy_id: copy.id, paused: copy.status === 'paused' ? 0 : 1 },
                  {
                    onError: (error) =>
                      void Toast.show({ content: error instanceof ApiError ? error.message : t('copy.failed') }),
                  },
                )
              }
            >
              {copy.status === 'paused' ? t('copy.resume') : t('copy.pause')}
            </Button>
            <Button size="small" fill="outline" color="danger" onClick={askUnfollow}>
              {t('copy.unfollow')}
            </Button>
          </>
        )}
      </div>
      {showActivity && <Activity copyId={copy.id} />}
      {editing && <EditSheet copy={copy} onClose={() => setEditing(false)} />}
    </article>
  );
}

/** What one line of a copy's activity says happened. */
function activityText(line: CopyActivityView, t: (key: string, options?: Record<string, unknown>) => string) {
  const side = line.side === null ? '' : line.side === 1 ? t('copy.buy') : t('copy.sell');
  const what = { code: isolate(line.code ?? ''), side, lots: isolate(formatLots(line.lots)) };
  switch (line.kind) {
    case 'copied':
      return t('copy.activity_copied', what);
    case 'skipped':
      return t('copy.activity_skipped', { ...what, reason: t(`copy.skip_${line.skip_reason ?? 'too_small'}`) });
    case 'closed':
      return t('copy.activity_closed', { ...what, pnl: isolate(formatProfit(line.amount)) });
    case 'detached':
      return t('copy.activity_detached', what);
    case 'stopped':
      return t('copy.activity_stopped', { reason: t(`copy.stop_reason_${line.stop_reason ?? 'unfollowed'}`) });
    case 'fee':
      return t('copy.activity_fee', { amount: isolate(formatMoney(line.amount)) });
  }
}

function Activity({ copyId }: { copyId: number }) {
  const { t } = useLazyTranslation('copy');
  const activity = useCopyActivityQuery(copyId);
  // A line written while the list is open shifts the numbered pages: each line is shown once.
  const lines = [...new Map((activity.data?.pages.flat() ?? []).map((line) => [line.id, line])).values()];
  if (activity.isPending) return <ListSkeleton rows={2} />;
  if (activity.isError && lines.length === 0) return <ErrorState onRetry={() => void activity.refetch()} />;
  if (lines.length === 0) return <p className="copy-note">{t('copy.no_activity')}</p>;
  return (
    <>
      <ul className="copy-activity" aria-label={t('copy.activity')}>
        {lines.map((line) => (
          <li key={line.id} className={`copy-activity-line copy-activity-${line.kind}`}>
            <span>{activityText(line, t)}</span>
            <span className="num label">{formatDateTime(line.at)}</span>
          </li>
        ))}
      </ul>
      {activity.hasNextPage && (
        <Button size="small" fill="none" loading={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
          {t('copy.more')}
        </Button>
      )}
    </>
  );
}

/** Changing a copy's amount or stop-loss; what is left as it was is not sent. */
function EditSheet({ copy, onClose }: { copy: CopyView; onClose: () => void }) {
  const { t } = useLazyTranslation('copy');
  const [amount, setAmount] = useState(localizeFigure(String(copy.amount)));
  const [stopLoss, setStopLoss] = useState(copy.stop_loss_pct);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const edit = useEditCopyMutation();

  const submit = () => {
    const plain = plainFigure(amount);
    const form = {
      copy_id: copy.id,
      ...(Number(plain) !== copy.amount ? { amount: plain } : {}),
      ...(stopLoss !== copy.stop_loss_pct ? { stop_loss_pct: stopLoss } : {}),
    };
    const found = schemaErrors(ZCopyEditRequest, form, t, { namespace: 'copy' });
    setErrors(found);
    setRefusal(null);
    if (Object.keys(found).length > 0 || edit.isPending) return;
    edit.mutate(form, {
      onSuccess: onClose,
      onError: (error) => setRefusal(error instanceof ApiError ? error.message : t('copy.failed')),
    });
  };

  return (
    <SheetForm
      title={t('copy.edit_title', { name: isolate(copy.nickname) })}
      submitLabel={t('copy.save')}
      pending={edit.isPending}
      refusal={errors.form ?? refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label={t('copy.amount')} error={errors.amount}>
        <Input aria-label={t('copy.amount')} value={amount} onChange={setAmount} inputMode="decimal" clearable />
      </Field>
      <StopLossField value={stopLoss} onChange={setStopLoss} />
    </SheetForm>
  );
}
