import { COPY_STOP_LOSS_MAX_PCT, COPY_STOP_LOSS_MIN_PCT } from '@pipwise/domain';
import { Button, Popup, Slider, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';
import { formatNumber } from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { riskTone, STOP_LOSS_STEP } from './figures';

/** The risk score 1–10 in its colour band; "–" before the provider has two days of history. */
export function RiskBadge({ score }: { score: number | null }) {
  const { t } = useLazyTranslation('copy');
  return (
    <span
      className={`copy-risk copy-risk-${riskTone(score)} num`}
      role="img"
      aria-label={score === null ? t('copy.risk_none') : t('copy.risk_of', { score })}
    >
      {score ?? '–'}
    </span>
  );
}

/** The broker's automated demo strategies say so wherever they are shown. */
export function AutomatedTag() {
  const { t } = useLazyTranslation('copy');
  return (
    <Tag className="copy-automated" color="warning" fill="outline">
      {t('copy.automated')}
    </Tag>
  );
}

/** A label above its figure; the figure's box keeps its width as it changes (tabular digits, min width). */
export function Figure({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={`copy-figure${className ? ` ${className}` : ''}`}>
      <span className="label">{label}</span>
      <span className="num copy-figure-value">{children}</span>
    </div>
  );
}

/** A copy sheet's frame: the popup, its form named by the title, the refusal under the fields and the submit button. */
export function SheetForm({
  title,
  submitLabel,
  pending,
  refusal,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  pending: boolean;
  refusal: string | null | undefined;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyClassName="copy-sheet" destroyOnClose showCloseButton>
      <form
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <h2 className="copy-sheet-title">{title}</h2>
        {children}
        {refusal && (
          <p className="field-error" role="alert">
            {refusal}
          </p>
        )}
        <Button type="submit" block color="primary" size="large" loading={pending} disabled={pending}>
          {submitLabel}
        </Button>
      </form>
    </Popup>
  );
}

/** The copy's stop-loss: its percentage beside the label and a slider in steps; `children` below it. */
export function StopLossField({
  value,
  onChange,
  children,
}: {
  value: number;
  onChange: (pct: number) => void;
  children?: ReactNode;
}) {
  const { t } = useLazyTranslation('copy');
  return (
    <div className="field" role="group" aria-label={t('copy.stop_loss')}>
      <span className="field-label copy-stop-head">
        <span>{t('copy.stop_loss')}</span>
        <output className="num copy-stop-value">{formatNumber(value, 0)}%</output>
      </span>
      <Slider
        aria-label={t('copy.stop_loss')}
        min={COPY_STOP_LOSS_MIN_PCT}
        max={COPY_STOP_LOSS_MAX_PCT}
        step={STOP_LOSS_STEP}
        value={value}
        onChange={(moved) => onChange(Array.isArray(moved) ? (moved[0] ?? value) : moved)}
      />
      {children}
    </div>
  );
}
