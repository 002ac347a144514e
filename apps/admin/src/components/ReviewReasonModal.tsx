import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks the reason of a refusal (required: the user reads it); `onSubmit` runs the call, the modal stays open while it does. */
export function ReviewReasonModal({
  open,
  title,
  okText,
  pending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  pending: boolean;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('reviews');
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger: true, loading: pending, htmlType: 'submit', form: 'review-reason' }}
      cancelButtonProps={{ disabled: pending }}
      cancelText={t('common:cancel')}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      <Form
        name="review-reason"
        form={form}
        layout="vertical"
        onFinish={({ reason }) => onSubmit(reason.trim())}
        disabled={pending}
      >
        <Form.Item
          name="reason"
          label={t('reason')}
          rules={[
            { required: true, whitespace: true, message: t('reason_required') },
            { max: 200, message: t('reason_too_long') },
          ]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
