import { Toast } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './CopyText.css';

/** The clipboard API needs a secure context; a plain-HTTP preview falls back to a selected textarea. */
export async function copy(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}

/** A labelled value the user pastes into their wallet or bank app, with a copy button named after it. */
export function CopyText({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <div className="copy-row">
      <div className="copy-text">
        <span className="copy-label" id={labelId}>
          {label}
        </span>
        <span className={`copy-value${mono ? ' copy-mono' : ''}`} aria-labelledby={labelId} role="textbox" aria-readonly="true">
          {/* Typed text (often Latin on an Arabic page) keeps its own direction: "388 Greenwich Street". */}
          <bdi>{value || '--'}</bdi>
        </span>
      </div>
      {value && (
        <button
          type="button"
          className="copy-button"
          aria-label={t('charge.copy_named', { name: label })}
          onClick={() =>
            void copy(value).then(
              () => Toast.show({ content: t('charge.copied') }),
              () => Toast.show({ content: t('charge.copy_failed') }),
            )
          }
        >
          <FileOutline aria-hidden="true" />
          <span>{t('charge.copy')}</span>
        </button>
      )}
    </div>
  );
}
