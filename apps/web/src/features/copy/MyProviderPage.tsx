import {
  PROVIDER_BIO_MAX,
  PROVIDER_NICKNAME_MAX,
  schemaErrors,
  ZCopyProviderRequest,
  ZCopyProviderUpdate,
  type MyProviderView,
} from '@pipwise/domain';
import { Button, Dialog, Input, Tag, TextArea, Toast } from 'antd-mobile';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  useBecomeProviderMutation,
  useMyProviderQuery,
  useStopProviderMutation,
  useUpdateProviderMutation,
  type ProviderForm,
} from '../../api/queries/copy';
import { ApiError } from '../../api/http';
import { Field } from '../../components/fields';
import { Screen } from '../../components/Screen';
import { ErrorState, ListSkeleton } from '../../components/states';
import { formatMoney, formatNumber, localizeFigure, plainFigure } from '../../i18n/format';
import { useLazyTranslation } from '../../i18n/lazy';
import { providerPath } from '../../routing/paths';
import { Figure } from './parts';
import './copy.css';

/** The user's own provider page: become one, or see copiers and fees earned, edit the profile, stop being copied. */
export default function MyProviderPage() {
  const { t } = useLazyTranslation('copy');
  const mine = useMyProviderQuery();
  return (
    <Screen title={t('copy.my_provider')} back>
      {mine.isPending ? (
        <ListSkeleton rows={4} />
      ) : mine.isError ? (
        <ErrorState onRetry={() => void mine.refetch()} />
      ) : mine.data === null || mine.data.status === 'stopped' ? (
        <Become previous={mine.data} />
      ) : (
        <Provider provider={mine.data} />
      )}
    </Screen>
  );
}

const failure = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

/** The profile's fields, shared by becoming a provider and editing. */
function ProfileForm({
  initial,
  maxFee,
  submitText,
  pending,
  onSubmit,
}: {
  initial: ProviderForm;
  maxFee: number | null;
  submitText: string;
  pending: boolean;
  onSubmit: (form: ProviderForm, done: (error: unknown) => void) => Record<string, string>;
}) {
  const { t } = useLazyTranslation('copy');
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const set = (field: keyof ProviderForm) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  return (
    <form
      className="copy-card copy-provider-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (pending) return;
        setRefusal(null);
        setErrors(
          onSubmit({ ...form, fee_pct: plainFigure(form.fee_pct) }, (error) =>
            setRefusal(error ? failure(error, t('copy.failed')) : null),
          ),
        );
      }}
    >
      <Field label={t('copy.nickname')} error={errors.nickname}>
        <Input
          aria-label={t('copy.nickname')}
          value={form.nickname}
          onChange={set('nickname')}
          maxLength={PROVIDER_NICKNAME_MAX}
          clearable
        />
      </Field>
      <Field label={t('copy.bio')} error={errors.bio}>
        <TextArea
          aria-label={t('copy.bio')}
          value={form.bio}
          onChange={set('bio')}
          rows={3}
          maxLength={PROVIDER_BIO_MAX}
          showCount
        />
      </Field>
      <Field label={t('copy.fee')} error={errors.fee_pct ?? errors.form}>
        <Input aria-label={t('copy.fee')} value={form.fee_pct} onChange={set('fee_pct')} inputMode="numeric" clearable />
      </Field>
      {maxFee !== null && <p className="copy-note">{t('copy.fee_max', { pct: formatNumber(maxFee, 0) })}</p>}
      <p className="copy-note">{t('copy.fee_explain')}</p>
      {refusal && (
        <p className="field-error" role="alert">
          {refusal}
        </p>
      )}
      <Button type="submit" block color="primary" loading={pending} disabled={pending}>
        {submitText}
      </Button>
    </form>
  );
}

function Become({ previous }: { previous: MyProviderView | null }) {
  const { t } = useLazyTranslation('copy');
  const become = useBecomeProviderMutation();
  return (
    <div className="copy-profile">
      <section className="copy-card">
        <h2 className="copy-section-title">{t('copy.become_title')}</h2>
        <p className="copy-note">{t('copy.become_text')}</p>
      </section>
      <ProfileForm
        initial={{
          nickname: previous?.nickname ?? '',
          bio: previous?.bio ?? '',
          fee_pct: localizeFigure(String(previous?.fee_pct ?? 0)),
        }}
        maxFee={previous?.fee_max_pct ?? null}
        submitText={t('copy.become')}
        pending={become.isPending}
        onSubmit={(form, done) => {
          const found = schemaErrors(ZCopyProviderRequest, form, t, { namespace: 'copy' });
          if (Object.keys(found).length === 0) {
            become.mutate(form, {
              onSuccess: () => {
                done(null);
                Toast.show({ content: t('copy.became') });
              },
              onError: done,
            });
          }
          return found;
        }}
      />
    </div>
  );
}

function Provider({ provider }: { provider: MyProviderView }) {
  const { t } = useLazyTranslation('copy');
  const update = useUpdateProviderMutation();
  const stop = useStopProviderMutation();
  const [editing, setEditing] = useState(false);
  return (
    <div className="copy-profile">
      <section className="copy-card" aria-label={t('copy.my_provider')}>
        <div className="copy-row-head">
          <Link className="copy-nickname" to={providerPath(provider.provider_id)} translate="no" dir="auto">
            {provider.nickname}
          </Link>
          <Tag color={provider.status === 'active' ? 'success' : 'danger'}>{t(`copy.provider_${provider.status}`)}</Tag>
        </div>
        {provider.suspended_reason && <p className="copy-note">{provider.suspended_reason}</p>}
        {!provider.listed && provider.status === 'active' && <p className="copy-note">{t('copy.not_listed')}</p>}
        <div className="copy-grid">
          <Figure label={t('copy.copiers')}>{formatNumber(provider.copiers, 0)}</Figure>
          <Figure label={t('copy.copied_amount')}>{formatMoney(provider.copied_amount)}</Figure>
          <Figure label={t('copy.fees_earned')}>{formatMoney(provider.fees_earned)}</Figure>
          <Figure label={t('copy.fee')}>{formatNumber(provider.fee_pct, 0)}</Figure>
        </div>
      </section>
      {editing ? (
        <ProfileForm
          initial={{ nickname: provider.nickname, bio: provider.bio, fee_pct: localizeFigure(String(provider.fee_pct)) }}
          maxFee={provider.fee_max_pct}
          submitText={t('copy.save')}
          pending={update.isPending}
          onSubmit={(form, done) => {
            // Only what changed is sent; an empty bio clears it.
            const changes: Partial<ProviderForm> = {
              ...(form.nickname !== provider.nickname ? { nickname: form.nickname } : {}),
              ...(form.bio !== provider.bio ? { bio: form.bio } : {}),
              ...(form.fee_pct !== String(provider.fee_pct) ? { fee_pct: form.fee_pct } : {}),
            };
            const found = schemaErrors(ZCopyProviderUpdate, changes, t, { namespace: 'copy' });
            if (Object.keys(found).length === 0) {
              update.mutate(changes, {
                onSuccess: () => {
                  done(null);
                  setEditing(false);
                },
                onError: done,
              });
            }
            return found;
          }}
        />
      ) : (
        provider.status === 'active' && (
          <div className="copy-card-actions">
            <Button fill="outline" onClick={() => setEditing(true)}>
              {t('copy.edit_profile')}
            </Button>
            <Button
              fill="outline"
              color="danger"
              loading={stop.isPending}
              onClick={() =>
                void Dialog.confirm({
                  title: t('copy.stop_title'),
                  content: t('copy.stop_text'),
                  confirmText: t('copy.stop'),
                  cancelText: t('copy.cancel'),
                  onConfirm: () =>
                    stop.mutateAsync({}).then(
                      () => undefined,
                      (error: unknown) => void Toast.show({ content: failure(error, t('copy.failed')) }),
                    ),
                })
              }
            >
              {t('copy.stop')}
            </Button>
          </div>
        )
      )}
    </div>
  );
}
