import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeButton } from './CodeButton';
import { CaptchaField, TextField, useCaptcha } from './fields';

type CaptchaProof = { key?: string; captcha?: string };

/**
 * The captcha answer typed beside its picture: `field` shows it, `sendWith` sends a request with it
 * (and fetches a new picture after, since a captcha answers once). Until `enabled` no picture is fetched
 * for it: a login asks for one only after a failure.
 */
export function useCaptchaAnswer(enabled = true) {
  const [answer, setAnswer] = useState('');
  const proof = useCaptcha(enabled);
  return {
    field: <CaptchaField value={answer} onChange={setAnswer} />,
    sendWith: <T,>(send: (proof: CaptchaProof) => Promise<T>) => proof.sendWith(answer, send),
    clear: () => setAnswer(''),
  };
}

/**
 * The verification-code step: the captcha that guards sending a code, the code button with its countdown,
 * and the code typed back. `fields` takes the code's error and what the button does (a rejection leaves the
 * button ready again); the request goes through `sendWith` to carry the captcha.
 */
export function useCodeStep() {
  const { t } = useTranslation();
  const captcha = useCaptchaAnswer();
  const [code, setCode] = useState('');

  const fields = (error: string | undefined, onSend: () => Promise<unknown>) => (
    <>
      {captcha.field}
      <TextField
        label={t('auth.code')}
        error={error}
        extra={<CodeButton onSend={onSend} />}
        value={code}
        onChange={setCode}
        placeholder={t('auth.code_placeholder')}
        inputMode="numeric"
        autoComplete="one-time-code"
      />
    </>
  );

  return { fields, sendWith: captcha.sendWith, code: code.trim() };
}
