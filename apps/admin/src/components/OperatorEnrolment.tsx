import type { OperatorEnrolmentView } from '@pipwise/domain';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from './DateTime';

/**
 * Shows an enrolment link once, to hand to the operator it names: they open it, choose their own password
 * and add their own authenticator secret, so nobody else ever holds both.
 */
export function OperatorEnrolment({ enrolment, onClose }: { enrolment: OperatorEnrolmentView | null; onClose: () => void }) {
  const { t } = useTranslation('operators');
  const link = enrolment ? `${window.location.origin}${enrolment.link}` : '';
  return (
    <Modal
      open={enrolment !== null}
      title={t('enrolment_title')}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('enrolment_done')}
        </Button>
      }
      destroyOnHidden
    >
      {enrolment && (
        <>
          <Alert type="warning" showIcon title={t('enrolment_once')} style={{ marginBottom: 16 }} />
          <Descriptions
            size="small"
            bordered
            column={1}
            items={[
              { key: 'email', label: t('email'), children: enrolment.email },
              { key: 'role', label: t('role'), children: t(`nav:role_${enrolment.role}`) },
              { key: 'expires', label: t('enrolment_expires'), children: <DateTime value={enrolment.expires_at} /> },
              {
                key: 'link',
                label: t('enrolment_link'),
                children: (
                  <Typography.Text
                    code
                    copyable={{ tooltips: [t('copy_link'), t('copied')] }}
                    style={{ wordBreak: 'break-all' }}
                    data-testid="enrolment-link"
                  >
                    {link}
                  </Typography.Text>
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
