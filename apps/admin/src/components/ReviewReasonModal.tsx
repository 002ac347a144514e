import { INTERNAL_NOTE_MAX, type FormSchema } from '@pipwise/domain';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSchemaRules } from '../forms';

/** A refusal's request schema; its reason's `.max()` sizes the box (a real-name refusal takes 500 characters, the others 200). */
export type RefusalSchema = FormSchema & { shape: { reason: { maxLength: number | null } } };

/** What an operator writes on a refusal: the reason, and (where the user reads it) an internal note besides. */
export interface ReviewWords {
  reason: string;
  internal_note?: string;
}

/** Each decision's own "reason required" key reads as one text. */
const REASON_REQUIRED = Object.fromEntries(
  ['deposit_reason_required', 'withdraw_reason_required', 'reject_reason_required', 'adjustment_reason_required'].map((key) => [
    key,
    'reviews.reason_required',
  ]),
);

/**
 * Asks the reason of a refusal (required); `onSubmit` runs the call, the modal stays open while it does.
 * With `forClient` the reason is the user's to read (app and e-mail), so it says so and offers an
 * internal note that only the back office and the audit keep. `schema` is the decision's request as the
 * server parses it, so the form refuses what the server would.
 */
export function ReviewReasonModal({
  open,
  title,
  okText,
  pending,
  forClient = false,
  schema,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  pending: boolean;
  forClient?: boolean;
  schema: RefusalSchema;
  onSubmit: (words: ReviewWords) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('reviews');
  const [form] = Form.useForm<{ reason: string; internal_note?: string }>();
  const rule = useSchemaRules(schema, 'reviews', (values: Partial<ReviewWords>) => values, { messages: REASON_REQUIRED });
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
          required
          rules={[rule('reason')]}
        >
          <Input.TextArea rows={3} maxLength={schema.shape.reason.maxLength ?? undefined} showCount autoFocus />
        </Form.Item>
        {forClient && (
          <Form.Item
            name="internal_note"
            label={t('internal_note')}
            extra={t('internal_note_hint')}
            rules={[rule('internal_note')]}
          >
            <Input.TextArea rows={2} maxLength={INTERNAL_NOTE_MAX} showCount />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
