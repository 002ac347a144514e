import { ApiPath } from '@pipwise/domain';
import { useMutation } from '@tanstack/react-query';
import { http } from '../http';

export interface PasswordCodeForm {
  /** 1: the user's own email; 2: their own phone. The server picks the address, never the app. */
  type: 1 | 2;
  key?: string;
  captcha?: string;
}

export function usePasswordCodeMutation() {
  return useMutation({
    mutationFn: (form: PasswordCodeForm) => http.post<unknown>(ApiPath.passwordCode, { ...form }, { form: true, loading: true }),
  });
}

export interface AmendPasswordForm {
  type: 1 | 2;
  new_password: string;
  re_password: string;
  auth_code: string;
}

export function useAmendPasswordMutation() {
  return useMutation({
    mutationFn: (form: AmendPasswordForm) =>
      http.post<unknown>(ApiPath.amendPassword, { ...form }, { form: true, loading: true }),
  });
}
