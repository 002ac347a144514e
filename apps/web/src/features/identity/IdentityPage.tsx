import { RealNameStatus, ZRealNameRequest, type RealNameView } from '@pipwise/domain';
import { Button, Input, Toast } from 'antd-mobile';
import { CheckCircleFill, ClockCircleFill, CloseCircleFill } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealNameQuery, useSubmitRealNameMutation } from '../../api/queries/identity';
import { ImageUpload } from '../../components/ImageUpload';
import { Screen } from '../../components/Screen';
import { ErrorState, ListSkeleton } from '../../components/states';
import { Field } from '../../components/fields';
import './identity.css';
import { realNameErrors, type RealNameForm } from './validation';

/**
 * Real-name verification (/mine/auth, docs/api.md): the form while nothing is under review, else the
 * status: under review, verified, or sent back with the operator's reason and a way to submit again.
 * Demo accounts never get here (RealAccountOnly shows the blocked message).
 */
export default function IdentityPage() {
  const { t } = useTranslation();
  const center = useRealNameQuery();
  const [resubmitting, setResubmitting] = useState(false);

  let body: ReactNode;
  if (center.isPending) body = <ListSkeleton rows={3} />;
  else if (center.isError) body = <ErrorState onRetry={() => void center.refetch()} />;
  else body = <IdentityStatus view={center.data} resubmitting={resubmitting} onResubmit={() => setResubmitting(true)} />;

  return (
    <Screen title={t('identity.title')} back>
      {body}
    </Screen>
  );
}

function IdentityStatus({
  view,
  resubmitting,
  onResubmit,
}: {
  view: RealNameView;
  resubmitting: boolean;
  onResubmit: () => void;
}) {
  const { t } = useTranslation();
  if (view.review_status === RealNameStatus.underReview) {
    return (
      <StatusBlock
        icon={<ClockCircleFill className="identity-icon identity-icon-review" />}
        title={t('identity.under_review_title')}
      >
        <p>{t('identity.under_review_text')}</p>
        <Summary view={view} />
      </StatusBlock>
    );
  }
  if (view.review_status === RealNameStatus.verified) {
    return (
      <StatusBlock
        icon={<CheckCircleFill className="identity-icon identity-icon-verified" />}
        title={t('identity.verified_title')}
      >
        <p>{t('identity.verified_text')}</p>
        <Summary view={view} />
      </StatusBlock>
    );
  }
  if (view.reason !== null && !resubmitting) {
    return (
      <StatusBlock
        icon={<CloseCircleFill className="identity-icon identity-icon-rejected" />}
        title={t('identity.rejected_title')}
      >
        <p className="identity-reason-label">{t('identity.reason')}</p>
        <p className="identity-reason">{view.reason}</p>
        <Button color="primary" block size="large" onClick={onResubmit}>
          {t('identity.resubmit')}
        </Button>
      </StatusBlock>
    );
  }
  return <IdentityForm initialName={view.name ?? ''} />;
}

function StatusBlock({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="identity-status" aria-label={title}>
      {icon}
      <h2 className="identity-status-title">{title}</h2>
      {children}
    </section>
  );
}

/** What was submitted, as the user may see it: the name and the masked number. */
function Summary({ view }: { view: RealNameView }) {
  const { t } = useTranslation();
  return (
    <dl className="identity-summary">
      <dt>{t('identity.name')}</dt>
      <dd>{view.name}</dd>
      <dt>{t('identity.card_id')}</dt>
      <dd>
        <bdi dir="ltr">{view.card_id}</bdi>
      </dd>
    </dl>
  );
}

function IdentityForm({ initialName }: { initialName: string }) {
  const { t } = useTranslation();
  const submit = useSubmitRealNameMutation();
  const [form, setForm] = useState<RealNameForm>({
    name: initialName,
    card_id: '',
    front_pic: undefined,
    reverse_pic: undefined,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof RealNameForm) => (value: string | undefined) =>
    setForm((current) => ({ ...current, [field]: value }));
  const sending = submit.isPending;

  return (
    <form
      className="identity-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (sending) return;
        const found = realNameErrors(form, t);
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        const request = ZRealNameRequest.parse(form);
        submit.mutate(request, { onSuccess: () => Toast.show({ icon: 'success', content: t('identity.submitted') }) });
      }}
    >
      <p className="identity-intro">{t('identity.intro')}</p>
      <Field label={t('identity.name')} error={errors.name}>
        <Input
          aria-label={t('identity.name')}
          value={form.name}
          onChange={set('name')}
          placeholder={t('identity.name_placeholder')}
          autoComplete="name"
          maxLength={100}
          clearable
        />
      </Field>
      <Field label={t('identity.card_id')} error={errors.card_id}>
        <Input
          aria-label={t('identity.card_id')}
          value={form.card_id}
          onChange={set('card_id')}
          placeholder={t('identity.card_id_placeholder')}
          autoComplete="off"
          maxLength={64}
          clearable
        />
      </Field>
      <div className="identity-sides">
        <Side label={t('identity.front')} error={errors.front}>
          <ImageUpload label={t('identity.front')} value={form.front_pic} onChange={set('front_pic')} disabled={sending} />
        </Side>
        <Side label={t('identity.reverse')} error={errors.reverse}>
          <ImageUpload label={t('identity.reverse')} value={form.reverse_pic} onChange={set('reverse_pic')} disabled={sending} />
        </Side>
      </div>
      <p className="identity-hint">{t('identity.photo_hint')}</p>
      <Button type="submit" color="primary" block size="large" loading={sending} disabled={sending}>
        {t('identity.submit')}
      </Button>
    </form>
  );
}

function Side({ label, error, children }: { label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className="field identity-side">
      <span className="field-label">{label}</span>
      {children}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
