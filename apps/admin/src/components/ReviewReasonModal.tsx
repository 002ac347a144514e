import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** What an operator writes on a refusal: the reason, and (where the user reads it) an internal note besides. */
export interface ReviewWords {
  reason: string;
  internal_note?: string;
}

/**
 * Asks the reason of a refusal (required); `onSubmit` runs the call, the modal stays open while it does.
 * With `forClient` the reason is the user's to read (app and e-mail), so it says so and offers an
 * internal note that only the back office and the audit keep.
 */
export function ReviewReasonModal({
  open,
  title,
  okText,
  pending,
  forClient = false,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  pending: boolean;
  forClient?: boolean;
  onSubmit: (words: ReviewWords) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('reviews');
  const [form] = Form.useForm<{ reason: string; internal_note?: string }>();
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
        onFinish={({ reason, internal_note }) => {
          const note = internal_note?.trim();
          onSubmit(note ? { reason: reason.trim(), internal_note: note } : { reason: reason.trim() });
        }}
        disabled={pending}
      >
        <Form.Item
          name="reason"
          label={forClient ? t('reason_for_client') : t('reason')}
          extra={forClient ? t('reason_for_client_hint') : undefined}
          rules={[
            { required: true, whitespace: true, message: t('reason_required') },
            { max: 200, message: t('reason_too_long') },
          ]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount autoFocus />
        </Form.Item>
        {forClient && (
          <Form.Item
            name="internal_note"
            label={t('internal_note')}
            extra={t('internal_note_hint')}
            rules={[{ max: 500, message: t('internal_note_too_long') }]}
          >
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
