import { Alert, Button, Descriptions, Modal, QRCode, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A new or reset operator's credentials: the only time the password and the authenticator secret are shown. */
export interface OperatorEnrolmentView {
  email: string;
  role: string;
  password: string;
  otpauth: string;
}

/** Shows an enrolment once, with the secret as a QR code for the authenticator app and copy buttons. */
export function OperatorEnrolment({ enrolment, onClose }: { enrolment: OperatorEnrolmentView | null; onClose: () => void }) {
  const { t } = useTranslation('operators');
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
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t('enrolment_once')} />
          <Descriptions
            size="small"
            bordered
            column={1}
            items={[
              { key: 'email', label: t('email'), children: enrolment.email },
              { key: 'role', label: t('role'), children: t(`nav:role_${enrolment.role}`) },
              {
                key: 'password',
                label: t('password'),
                children: (
                  <Typography.Text
                    code
                    copyable={{ tooltips: [t('copy_password'), t('copied')] }}
                    data-testid="enrolment-password"
                  >
                    {enrolment.password}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <div style={{ display: 'grid', justifyItems: 'center', gap: 8 }}>
            <QRCode value={enrolment.otpauth} size={200} aria-label={t('otpauth_qr')} />
            <Typography.Text type="secondary">{t('scan_hint')}</Typography.Text>
          </div>
          <Typography.Paragraph
            copyable={{ tooltips: [t('copy_otpauth'), t('copied')] }}
            ellipsis={{ rows: 2, expandable: true }}
            style={{ wordBreak: 'break-all' }}
            data-testid="enrolment-otpauth"
          >
            {enrolment.otpauth}
          </Typography.Paragraph>
        </Space>
      )}
    </Modal>
  );
}
