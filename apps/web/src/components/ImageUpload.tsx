import { ApiPath, type UploadView } from '@pipwise/domain';
import { Image, SpinLoading } from 'antd-mobile';
import { AddOutline, CloseOutline } from 'antd-mobile-icons';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiUrl, http } from '../api/http';
import './ImageUpload.css';

/** What the server decodes (docs/architecture.md); `.heic` too, since some browsers give HEIC files no type. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,.heic';

/** One image uploaded as multipart `file`; the server answers its id and a signed, short-lived URL. */
export const uploadImage = (file: Blob, signal?: AbortSignal) =>
  http.upload<UploadView>(ApiPath.imageUpload, file, 'file', signal ? { signal } : {});

interface ImageUploadProps {
  /** The upload id (what deposit and identity calls send). */
  value?: string | undefined;
  onChange?: (id: string | undefined) => void;
  /** The control's accessible name, e.g. "Payment proof". */
  label: string;
  disabled?: boolean;
}

type Pending = { preview: string; controller: AbortController };

/**
 * Picks one image and uploads it at once. The preview comes from the URL the server answered, so what the
 * user sees is what was stored. A failed upload clears the choice (docs/api.md) and says why; the client has
 * already toasted the server's message, and it stays under the control until the next pick.
 */
export function ImageUpload({ value, onChange, label, disabled }: ImageUploadProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const errorId = useId();
  const [pending, setPending] = useState<Pending | null>(null);
  const [uploaded, setUploaded] = useState<UploadView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const pendingRef = useRef<Pending | null>(null);

  // A form reset (value gone or replaced) drops the image shown for an earlier value.
  const shown = uploaded && uploaded.id === value ? uploaded : null;

  const endPending = () => {
    const current = pendingRef.current;
    if (!current) return;
    URL.revokeObjectURL(current.preview);
    pendingRef.current = null;
    setPending(null);
  };

  useEffect(
    () => () => {
      pendingRef.current?.controller.abort();
      if (pendingRef.current) URL.revokeObjectURL(pendingRef.current.preview);
    },
    [],
  );

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file picked again after a failure must fire change again.
    event.target.value = '';
    if (!file) return;
    pendingRef.current?.controller.abort();
    endPending();
    const next: Pending = { preview: URL.createObjectURL(file), controller: new AbortController() };
    pendingRef.current = next;
    setPending(next);
    setError(null);
    setUploaded(null);
    onChange?.(undefined);
    try {
      const result = await uploadImage(file, next.controller.signal);
      if (pendingRef.current !== next) return;
      setUploaded(result);
      onChange?.(result.id);
    } catch (failure) {
      if (pendingRef.current !== next) return;
      setError(failure instanceof ApiError ? failure.message : t('upload.failed'));
    } finally {
      if (pendingRef.current === next) endPending();
    }
  };

  const remove = () => {
    pendingRef.current?.controller.abort();
    endPending();
    setUploaded(null);
    setError(null);
    onChange?.(undefined);
    input.current?.focus();
  };

  return (
    <div className="image-upload">
      {pending ? (
        <div className="image-upload-tile" role="status" aria-busy="true" aria-label={t('upload.uploading', { label })}>
          <img className="image-upload-picture" src={pending.preview} alt="" />
          <div className="image-upload-overlay">
            <SpinLoading color="white" style={{ '--size': '28px' }} />
          </div>
          <button type="button" className="image-upload-remove" onClick={remove} aria-label={t('upload.cancel', { label })}>
            <CloseOutline aria-hidden="true" />
          </button>
        </div>
      ) : shown ? (
        <div className="image-upload-tile">
          <Image className="image-upload-picture" src={apiUrl(shown.url)} alt={label} fit="cover" />
          <button
            type="button"
            className="image-upload-remove"
            onClick={remove}
            disabled={disabled}
            aria-label={t('upload.remove', { label })}
          >
            <CloseOutline aria-hidden="true" />
          </button>
        </div>
      ) : (
        <label className={`image-upload-tile image-upload-pick${disabled ? ' image-upload-disabled' : ''}`} htmlFor={inputId}>
          <AddOutline className="image-upload-plus" aria-hidden="true" />
          <span className="image-upload-hint">{t('upload.choose')}</span>
        </label>
      )}
      <input
        ref={input}
        id={inputId}
        className="image-upload-input"
        type="file"
        accept={IMAGE_ACCEPT}
        aria-label={label}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        disabled={disabled || Boolean(pending) || Boolean(shown)}
        onChange={(event) => void pick(event)}
      />
      {error && (
        <p className="image-upload-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
