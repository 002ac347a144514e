import { Button, SpinLoading } from 'antd-mobile';
import { LinkOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { Screen } from '../../components/Screen';
import { ErrorState } from '../../components/states';
import './chat.css';

/** A chat page that has not loaded by then is taken as refused (a frame blocked by its site often never says). */
export const CHAT_LOAD_TIMEOUT_MS = 15_000;

/** The link as an address a frame may show: http(s) only, never `javascript:` or `data:`. */
export function chatUrl(link: string | undefined): URL | null {
  if (!link?.trim()) return null;
  try {
    const url = new URL(link.trim(), window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Scripts and forms run (a chat needs them) and new windows may open outside; top navigation is refused,
 * so the chat cannot replace the app. A page of the app's own origin is framed without its origin, so it
 * cannot read the session kept in this origin's storage.
 */
const sandboxFor = (url: URL) =>
  ['allow-scripts', 'allow-forms', 'allow-popups', 'allow-popups-to-escape-sandbox']
    .concat(url.origin === window.location.origin ? [] : ['allow-same-origin'])
    .join(' ');

const openOutside = (url: URL) => {
  window.open(url.href, '_blank', 'noopener,noreferrer');
};

function ChatUnavailable({ url }: { url: URL | null }) {
  const { t } = useTranslation();
  return (
    <div className="state-block chat-error" role="alert">
      <p>{t(url ? 'chat.frame_failed' : 'chat.no_link')}</p>
      {url && (
        <Button color="primary" onClick={() => openOutside(url)}>
          {t('chat.open_in_browser')}
        </Button>
      )}
    </div>
  );
}

function ChatFrame({ url }: { url: URL }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');

  useEffect(() => {
    const timer = window.setTimeout(() => setState((now) => (now === 'loading' ? 'failed' : now)), CHAT_LOAD_TIMEOUT_MS);
    // The app's Content-Security-Policy refuses some frames (plain http); the browser says so here.
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI && url.href.startsWith(event.blockedURI)) setState('failed');
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('securitypolicyviolation', onViolation);
    };
  }, [url]);

  if (state === 'failed') return <ChatUnavailable url={url} />;
  return (
    <div className="chat-frame-wrap">
      {state === 'loading' && (
        <div className="chat-loading" role="status" aria-label={t('common.loading')}>
          <SpinLoading />
        </div>
      )}
      <iframe
        className={`chat-frame${state === 'loading' ? ' chat-frame-hidden' : ''}`}
        title={t('chat.frame_title')}
        src={url.href}
        sandbox={sandboxFor(url)}
        referrerPolicy="no-referrer"
        allow="clipboard-write"
        onLoad={() => setState((now) => (now === 'failed' ? now : 'shown'))}
      />
    </div>
  );
}

/** Customer service in the app (docs/api.md chat): the operators' service link in a frame. */
export default function ChatPage() {
  const { t } = useTranslation();
  const info = useBasicInfoQuery();
  const url = chatUrl(info.data?.service_link);

  let body;
  if (info.isPending) {
    body = (
      <div className="chat-loading" role="status" aria-label={t('common.loading')}>
        <SpinLoading />
      </div>
    );
  } else if (info.isError) {
    body = <ErrorState onRetry={() => void info.refetch()} />;
  } else if (!url) {
    body = <ChatUnavailable url={null} />;
  } else {
    body = <ChatFrame key={url.href} url={url} />;
  }

  return (
    <Screen
      title={t('chat.title')}
      back
      className="chat-screen"
      right={
        url && (
          <button
            type="button"
            className="chat-open-outside"
            aria-label={t('chat.open_in_browser')}
            onClick={() => openOutside(url)}
          >
            <LinkOutline aria-hidden="true" />
          </button>
        )
      }
    >
      {body}
    </Screen>
  );
}
