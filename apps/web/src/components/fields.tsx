import { LANGUAGE_LOCALES, resolveLanguage } from '@pipwise/domain';
import { Input, Popup, SearchBar } from 'antd-mobile';
import { RedoOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAreaListQuery, useCaptchaQuery } from '../api/queries/auth';
import type { AreaCode } from '../api/types';
import { EmptyState, ErrorState, ListSkeleton } from './states';

/** A labelled input row with room for an inline error and a trailing control. */
export function Field({
  label,
  error,
  extra,
  children,
}: {
  label: string;
  error?: string | undefined;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label">
        <span>{label}</span>
        <span className="field-control">
          {children}
          {extra}
        </span>
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'email' | 'numeric' | 'tel' | 'text';
}) {
  return (
    <Input
      aria-label={props.label}
      value={props.value}
      onChange={props.onChange}
      type={props.type ?? 'text'}
      placeholder={props.placeholder}
      autoComplete={props.autoComplete}
      inputMode={props.inputMode}
      clearable
    />
  );
}

/** A text input in a labelled row, the input named by the row's label. */
export function TextField({
  error,
  extra,
  ...input
}: Parameters<typeof TextInput>[0] & { error?: string | undefined; extra?: ReactNode }) {
  return (
    <Field label={input.label} error={error} extra={extra}>
      <TextInput {...input} />
    </Field>
  );
}

/** The image captcha that guards sending a code (and logins after wrong passwords); tapping the picture fetches another. */
export function CaptchaField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const captcha = useCaptchaQuery(true);
  return (
    <TextField
      label={t('auth.captcha')}
      value={value}
      onChange={onChange}
      placeholder={t('auth.captcha_placeholder')}
      extra={
        <button
          type="button"
          className="captcha-image"
          onClick={() => void captcha.refetch()}
          aria-label={t('auth.captcha_refresh')}
        >
          {captcha.data ? <img src={captcha.data.b64s} alt="" width={96} height={36} /> : <RedoOutline />}
        </button>
      }
    />
  );
}

/**
 * The captcha's id and a `sendWith` helper: the answer goes along only when one was typed (the server may
 * not require it), and a captcha answers once, so a new picture is fetched after every attempt.
 */
export function useCaptcha(enabled = true) {
  const captcha = useCaptchaQuery(enabled);
  return {
    sendWith: async <T,>(answer: string, send: (proof: { key?: string; captcha?: string }) => Promise<T>) => {
      const id = captcha.data?.id;
      try {
        return await send(id && answer.trim() ? { key: id, captcha: answer.trim() } : {});
      } finally {
        if (enabled) void captcha.refetch();
      }
    },
  };
}

/** Country names in the reader's language when the browser knows the region code. */
function regionName(area: AreaCode, language: string) {
  try {
    return (
      new Intl.DisplayNames([LANGUAGE_LOCALES[resolveLanguage(language)]], { type: 'region' }).of(area.code.toUpperCase()) ??
      area.name ??
      area.code
    );
  } catch {
    return area.name ?? area.code;
  }
}

/** The dialling-code picker for phone accounts. */
export function AreaPicker({ value, onChange }: { value: AreaCode | undefined; onChange: (area: AreaCode) => void }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const areas = useAreaListQuery(true);
  const needle = filter.trim().toLowerCase();
  const named = (areas.data ?? []).map((area) => ({ area, name: regionName(area, i18n.language) }));
  const shown = named.filter(
    ({ area, name }) =>
      !needle ||
      area.global_code.includes(needle) ||
      area.code.toLowerCase().includes(needle) ||
      name.toLowerCase().includes(needle),
  );
  return (
    <>
      <button type="button" className="area-button" onClick={() => setOpen(true)} aria-label={t('auth.area_code')}>
        {value ? `+${value.global_code.replace(/^\+/, '')}` : t('auth.area_code')}
      </button>
      <Popup visible={open} onMaskClick={() => setOpen(false)} bodyClassName="area-popup">
        <div className="search-box">
          <SearchBar placeholder={t('auth.area_search')} value={filter} onChange={setFilter} cancelText={t('common.cancel')} />
        </div>
        <div className="area-list">
          {areas.isPending ? (
            <ListSkeleton />
          ) : areas.isError ? (
            <ErrorState onRetry={() => void areas.refetch()} />
          ) : shown.length === 0 ? (
            <EmptyState />
          ) : (
            <ul>
              {shown.map(({ area, name }) => (
                <li key={area.id}>
                  <button
                    type="button"
                    className="area-item"
                    onClick={() => {
                      onChange(area);
                      setOpen(false);
                    }}
                  >
                    <span>{name}</span>
                    <span className="num">+{area.global_code.replace(/^\+/, '')}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Popup>
    </>
  );
}
