import type { PayoutWarningView } from '@pipwise/domain';
import { Alert, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What the server flags on a withdrawal's destination or a user's payout methods: a coin address other
 * users bound too, or a bank payee not named as the verified owner. They inform a decision; nothing
 * was refused for them.
 */
export function PayoutWarnings({ warnings }: { warnings: readonly PayoutWarningView[] | undefined }) {
  const { t } = useTranslation('reviews');
  if (!warnings || warnings.length === 0) return null;
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      {warnings.map((warning, index) => (
        <Alert key={index} type="warning" showIcon title={warningText(warning, t)} />
      ))}
    </Space>
  );
}

function warningText(warning: PayoutWarningView, t: (key: string, params?: Record<string, unknown>) => string): string {
  if (warning.code === 'address_shared')
    return t('warning_address_shared', { address: warning.address, uids: warning.uids.join(', ') });
  return warning.verified_name === null
    ? t('warning_payee_unverified', { payee: warning.payee_name })
    : t('warning_payee_mismatch', { payee: warning.payee_name, verified: warning.verified_name });
}
