import { CODE_RESEND_SECONDS } from '@pipwise/domain';
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** "Send code", then a 60-second countdown before another can be asked for (docs/api.md). */
export function CodeButton({ onSend }: { onSend: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  return (
    <Button
      size="small"
      color="primary"
      fill="none"
      disabled={left > 0 || sending}
      onClick={() => {
        setSending(true);
        onSend()
          .then(() => setLeft(CODE_RESEND_SECONDS))
          .catch(() => undefined)
          .finally(() => setSending(false));
      }}
    >
      {left > 0 ? t('auth.resend_in', { seconds: left }) : t('auth.send_code')}
    </Button>
  );
}
