import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';

/** The error state of a page or panel whose data could not be loaded: the server's message and a retry. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={error instanceof ApiError ? error.message : t('server_error')}
      extra={<Button onClick={onRetry}>{t('retry')}</Button>}
    />
  );
}

/** The message of a failed call as the operator should read it. */
export const errorMessage = (error: unknown, fallback: string): string => (error instanceof ApiError ? error.message : fallback);
