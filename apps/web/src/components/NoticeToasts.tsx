import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountNotice } from '../api/types';
import { formatNumber } from '../i18n/format';
import { useNoticeToasts } from '../stores/noticeToasts';
import { profitTone } from './market';
import { noticeText } from './noticeText';
import './NoticeToasts.css';

/** How long a toast stays; it stays in the list under the bell. */
const SHOWN_MS = 10_000;

/** The account notices pushed while the app is open, on whatever screen is up (app shell). */
export default function NoticeToasts() {
  const shown = useNoticeToasts((state) => state.shown);
  if (shown.length === 0) return null;
  return (
    <div className="notice-toasts" role="status" aria-live="polite">
      {shown.map((notice) => (
        <NoticeToast key={notice.id} notice={notice} />
      ))}
    </div>
  );
}

function NoticeToast({ notice }: { notice: AccountNotice }) {
  const { t } = useTranslation();
  const dismiss = useNoticeToasts((state) => state.dismiss);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(notice.id), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [dismiss, notice.id]);
  const text = noticeText(t, notice);
  return (
    <div className={`notice-toast notice-${text.tone}`} data-testid="notice-toast" data-reason={notice.reason ?? notice.kind}>
      <div className="notice-toast-text">
        <strong>{text.title}</strong>
        <span>{text.detail}</span>
        {text.profit !== null && (
          <span className={`num ${profitTone(text.profit)}`} data-testid="notice-toast-profit">
            {t('notices.profit', { profit: formatNumber(text.profit, 2, true) })}
          </span>
        )}
      </div>
      <button type="button" className="notice-toast-close" aria-label={t('notices.dismiss')} onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}
