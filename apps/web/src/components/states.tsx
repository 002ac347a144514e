import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';

/** Lists load behind 10 skeleton rows (docs/api.md). */
export function ListSkeleton({ rows = 10 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div className="list-skeleton" role="status" aria-label={t('common.loading')} aria-busy="true">
      {Array.from({ length: rows }, (_, index) => (
        <div className="list-skeleton-row" key={index}>
          <Skeleton animated className="skeleton-avatar" />
          <Skeleton.Paragraph lineCount={2} animated />
        </div>
      ))}
    </div>
  );
}

export function PageSkeleton() {
  return (
    <div className="screen">
      <ListSkeleton />
    </div>
  );
}

export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state-block" role="status">
      <svg className="state-icon" viewBox="0 0 64 64" aria-hidden="true">
        <rect x="10" y="16" width="44" height="36" rx="4" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M10 30h14l4 6h8l4-6h14" fill="none" stroke="currentColor" strokeWidth="3" />
      </svg>
      <p>{text ?? t('common.no_data')}</p>
    </div>
  );
}

export function ErrorState({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state-block" role="alert">
      <svg className="state-icon" viewBox="0 0 64 64" aria-hidden="true">
        <circle cx="32" cy="32" r="22" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M32 20v16M32 42v3" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <p>{t('common.load_failed')}</p>
      {onRetry && (
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
