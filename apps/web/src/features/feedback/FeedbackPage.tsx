import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_TEXT_MAX,
  ZFeedbackRequest,
  schemaErrors,
  type FeedbackCategory,
} from '@pipwise/domain';
import { Button, Input, Result, Selector, TextArea } from 'antd-mobile';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSubmitFeedbackMutation, type FeedbackForm } from '../../api/queries/feedback';
import { Paths } from '../../routing/paths';
import { ImageUpload } from '../../components/ImageUpload';
import { Screen } from '../../components/Screen';
import { useSession } from '../../stores/session';
import { Field } from '../../components/fields';
import './feedback.css';

/** Feedback from anyone (docs/api.md feedback): what it is about, the text, a way to answer and, for real accounts, an image. */
export default function FeedbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  // Uploading needs a real account (the server refuses visitors and demo accounts).
  const canAttach = user !== null && user.is_demo !== 1;
  const [category, setCategory] = useState<FeedbackCategory | undefined>();
  const [text, setText] = useState('');
  const [contact, setContact] = useState('');
  const [image, setImage] = useState<string | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState(false);
  const submit = useSubmitFeedbackMutation();
  // Set in the tap itself: a second tap of a double tap arrives before the disabled button is drawn.
  const inFlight = useRef(false);

  const startAgain = () => {
    setCategory(undefined);
    setText('');
    setContact('');
    setImage(undefined);
    setErrors({});
    setSent(false);
  };

  if (sent) {
    return (
      <Screen title={t('feedback.title')} back>
        <div className="feedback-done">
          <Result status="success" title={t('feedback.sent_title')} description={t('feedback.sent_text')} />
          <Button block color="primary" onClick={() => void navigate(Paths.home)}>
            {t('feedback.back_home')}
          </Button>
          <Button block fill="outline" onClick={startAgain}>
            {t('feedback.send_another')}
          </Button>
        </div>
      </Screen>
    );
  }

  return (
    <Screen title={t('feedback.title')} back>
      <form
        className="feedback-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          // One tap, one feedback: a second tap while the first is in flight does nothing.
          if (inFlight.current) return;
          const form: FeedbackForm = {
            ...(category ? { category } : {}),
            text,
            ...(contact.trim() ? { contact: contact.trim() } : {}),
            ...(canAttach && image ? { upload_id: image } : {}),
          };
          const found = schemaErrors(ZFeedbackRequest, form, t, { namespace: 'feedback' });
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          inFlight.current = true;
          submit.mutate(form, {
            onSuccess: () => setSent(true),
            onSettled: () => {
              inFlight.current = false;
            },
          });
        }}
      >
        <div className="field" role="group" aria-label={t('feedback.topic')}>
          <span className="field-label">{t('feedback.topic')}</span>
          <Selector
            className="feedback-categories"
            columns={2}
            value={category ? [category] : []}
            onChange={(value) => setCategory(value[0])}
            options={FEEDBACK_CATEGORIES.map((value) => ({ value, label: t(`feedback.kind_${value}`) }))}
          />
          {errors.category && (
            <p className="field-error" role="alert">
              {errors.category}
            </p>
          )}
        </div>
        <Field label={t('feedback.text')} error={errors.text}>
          <TextArea
            aria-label={t('feedback.text')}
            value={text}
            onChange={setText}
            placeholder={t('feedback.text_placeholder')}
            rows={6}
            maxLength={FEEDBACK_TEXT_MAX}
            showCount
          />
        </Field>
        <Field label={t('feedback.contact')} error={errors.contact}>
          <Input
            aria-label={t('feedback.contact')}
            value={contact}
            onChange={setContact}
            placeholder={t('feedback.contact_placeholder')}
            maxLength={FEEDBACK_CONTACT_MAX}
            clearable
          />
        </Field>
        {canAttach ? (
          <div className="field" role="group" aria-label={t('feedback.image')}>
            <span className="field-label">{t('feedback.image')}</span>
            <ImageUpload label={t('feedback.image')} value={image} onChange={setImage} disabled={submit.isPending} />
            {errors.upload_id && (
              <p className="field-error" role="alert">
                {errors.upload_id}
              </p>
            )}
          </div>
        ) : (
          <p className="feedback-hint">{t('feedback.image_signed_in_only')}</p>
        )}
        <Button type="submit" color="primary" block size="large" loading={submit.isPending} disabled={submit.isPending}>
          {t('feedback.submit')}
        </Button>
      </form>
    </Screen>
  );
}
