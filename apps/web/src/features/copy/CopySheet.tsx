import {
  copyStopLossLevel,
  schemaErrors,
  ZCopyFollowRequest,
  type CopyPreviewView,
  type ProviderProfileView,
} from '@pipwise/domain';
import { Input, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCopyPreviewQuery, useFollowMutation } from '../../api/queries/copy';
import { ApiError } from '../../api/http';
import { Field } from '../../components/fields';
import { formatLots, formatMoney, formatNumber, plainFigure } from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { Paths } from '../../routing/paths';
import { DEFAULT_STOP_LOSS_PCT, isolate } from './figures';
import { SheetForm, StopLossField } from './parts';

/** The preview is asked once typing pauses, not on every key. */
const PREVIEW_PAUSE_MS = 400;

function usePaused<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The amount's plain figure when it is one the server could take, else '' (no preview for it). */
const previewAmount = (typed: string) => {
  const plain = plainFigure(typed);
  return /^\d+(\.\d{1,2})?$/.test(plain) && Number(plain) > 0 ? plain : '';
};

/**
 * The copy sheet: the amount and copy stop-loss, what the copy would open right now at these sizes (the
 * server's preview of the provider's open positions), the provider's fee and a plain-words risk notice.
 */
export function CopySheet({ provider, onClose }: { provider: ProviderProfileView; onClose: () => void }) {
  const { t } = useLazyTranslation('copy');
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [stopLoss, setStopLoss] = useState(DEFAULT_STOP_LOSS_PCT);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const follow = useFollowMutation();
  // Set in the tap itself: a second tap of a double tap arrives before the disabled button is drawn.
  const inFlight = useRef(false);
  const plain = previewAmount(amount);
  const preview = useCopyPreviewQuery(provider.provider_id, usePaused(plain, PREVIEW_PAUSE_MS), stopLoss);
  const stopAt = plain ? copyStopLossLevel(plain, stopLoss).toNumber() : null;

  const submit = () => {
    if (inFlight.current) return;
    const form = { provider_id: provider.provider_id, amount: plainFigure(amount), stop_loss_pct: stopLoss };
    const found = schemaErrors(ZCopyFollowRequest, form, t, { namespace: 'copy' });
    setErrors(found);
    setRefusal(null);
    if (Object.keys(found).length > 0) return;
    inFlight.current = true;
    follow.mutate(form, {
      onSuccess: () => {
        Toast.show({ content: t('copy.following', { name: isolate(provider.nickname) }) });
        onClose();
        void navigate(Paths.copyMine);
      },
      // The server's own words (below the minimum, above the free margin, …) under the button.
      onError: (error) => setRefusal(error instanceof ApiError ? error.message : t('copy.failed')),
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  return (
    <SheetForm
      title={t('copy.sheet_title', { name: isolate(provider.nickname) })}
      submitLabel={t('copy.start')}
      pending={follow.isPending}
      refusal={refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label={t('copy.amount')} error={errors.amount}>
        <Input
          aria-label={t('copy.amount')}
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          placeholder={preview.data ? t('copy.amount_hint', { min: formatMoney(preview.data.min_amount) }) : ''}
          clearable
        />
      </Field>
      {preview.data && (
        <p className="copy-note num-line">{t('copy.free_margin', { amount: formatMoney(preview.data.free_margin) })}</p>
      )}
      <StopLossField value={stopLoss} onChange={setStopLoss}>
        <p className="copy-note">
          {stopAt === null
            ? t('copy.stop_loss_explain')
            : t('copy.stop_loss_at', { loss: formatMoney(Math.abs(stopAt)), pct: formatNumber(stopLoss, 0) })}
        </p>
        {errors.stop_loss_pct && (
          <p className="field-error" role="alert">
            {errors.stop_loss_pct}
          </p>
        )}
      </StopLossField>
      <section className="copy-preview" aria-label={t('copy.preview')} aria-busy={preview.isFetching}>
        <h3 className="copy-section-title">{t('copy.preview')}</h3>
        <PreviewLines plain={plain} preview={preview.data} failed={preview.isError} />
      </section>
      <p className="copy-fee">{t('copy.fee_line', { pct: formatNumber(preview.data?.fee_pct ?? provider.fee_pct, 0) })}</p>
      <p className="copy-risk-notice" role="note">
        {t('copy.risk_notice')}
      </p>
    </SheetForm>
  );
}

function PreviewLines({ plain, preview, failed }: { plain: string; preview: CopyPreviewView | undefined; failed: boolean }) {
  const { t } = useLazyTranslation('copy');
  const { t: tOrder } = useTranslation();
  if (!plain) return <p className="copy-note">{t('copy.preview_enter_amount')}</p>;
  if (failed && !preview) return <p className="copy-note">{t('copy.preview_failed')}</p>;
  if (!preview) return <p className="copy-note">{t('copy.loading')}</p>;
  if (preview.lines.length === 0) return <p className="copy-note">{t('copy.preview_none')}</p>;
  return (
    <ul className="copy-preview-lines">
      {preview.lines.map((line, index) => (
        <li key={`${line.code}-${index}`} className="copy-preview-line">
          <span translate="no" dir="ltr">
            {line.code}
          </span>
          <span className={line.side === 1 ? 'text-up' : 'text-down'}>{line.side === 1 ? t('copy.buy') : t('copy.sell')}</span>
          {line.lots === null ? (
            <span className="copy-skip">{t(`copy.skip_${line.skip_reason ?? 'too_small'}`)}</span>
          ) : (
            <span className="num">{t('copy.lots', { lots: formatLots(line.lots) })}</span>
          )}
          {line.lots !== null && (
            <span className="copy-preview-cost num">
              {tOrder('order.margin')} {formatMoney(line.margin)} · {tOrder('order.fee')} {formatMoney(line.fee)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
