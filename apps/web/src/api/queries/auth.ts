import { ApiPath, type CodePurposeValue } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';
import type { AreaCode, BasicInfo, Captcha, LoginResult } from '../types';
import { STALE_REFERENCE } from './staleTimes';

export const authKeys = {
  all: ['auth'] as const,
  areas: () => [...authKeys.all, 'areas'] as const,
  setting: (key: string) => [...authKeys.all, 'setting', key] as const,
  basicInfo: () => [...authKeys.all, 'basic_info'] as const,
  captcha: () => [...authKeys.all, 'captcha'] as const,
};

export function useAreaListQuery(enabled = true) {
  return useQuery({
    queryKey: authKeys.areas(),
    queryFn: () => http.get<AreaCode[]>(ApiPath.areaList),
    staleTime: STALE_REFERENCE,
    enabled,
  });
}

export function useSettingQuery(key: string) {
  return useQuery({
    queryKey: authKeys.setting(key),
    queryFn: () => http.get<unknown>(ApiPath.setting, { key }, { silent: true }),
    staleTime: STALE_REFERENCE,
  });
}

export function useBasicInfoQuery() {
  return useQuery({
    queryKey: authKeys.basicInfo(),
    queryFn: () => http.get<BasicInfo>(ApiPath.basicInfo, undefined, { silent: true }),
    staleTime: STALE_REFERENCE,
  });
}

/** A new picture on every fetch; `refetch()` is the "another one" tap. */
export function useCaptchaQuery(enabled: boolean) {
  return useQuery({
    queryKey: authKeys.captcha(),
    queryFn: () => http.get<Captcha>(ApiPath.captcha),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
  });
}

function useSignIn() {
  const client = useQueryClient();
  return (result: LoginResult) => {
    client.clear();
    useSession.getState().signIn(result.token, result.user);
  };
}

export interface LoginForm {
  account: string;
  password: string;
  login_type?: string;
}

export function useLoginMutation() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: (form: LoginForm) => http.post<LoginResult>(ApiPath.login, { ...form }, { form: true, loading: true }),
    onSuccess: signIn,
  });
}

export function useDemoMutation() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: (demoId?: string) =>
      http.get<LoginResult>(ApiPath.createDemo, demoId ? { demo_id: demoId } : undefined, { loading: true }),
    onSuccess: signIn,
  });
}

export interface RegisterForm {
  type: 1 | 2;
  area_id?: number;
  account: string;
  password: string;
  re_password: string;
  invite_code?: string;
  sms_code: string;
}

export function useRegisterMutation() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: (form: RegisterForm) => http.post<LoginResult>(ApiPath.register, { ...form }, { form: true, loading: true }),
    onSuccess: signIn,
  });
}

export interface ForgotForm {
  type: 1 | 2;
  account: string;
  area_id?: number;
  new_password: string;
  secondary_password: string;
  auth_code: string;
}

export function useForgotMutation() {
  return useMutation({
    mutationFn: (form: ForgotForm) => http.post<unknown>(ApiPath.forgetPassword, { ...form }, { form: true, loading: true }),
  });
}

export interface SendCodeForm {
  channel: 'email' | 'sms';
  to: string;
  area_id?: number;
  type: CodePurposeValue;
  /** The captcha id and the text read from its image. */
  key?: string;
  captcha?: string;
}

export function useSendCodeMutation() {
  return useMutation({
    mutationFn: ({ channel, ...form }: SendCodeForm) =>
      http.post<unknown>(channel === 'email' ? ApiPath.sendEmail : ApiPath.sendSms, { ...form }, { form: true, loading: true }),
  });
}

export function useLogoutMutation() {
  return useMutation({
    mutationFn: () => http.post<unknown>(ApiPath.logout, undefined, { silent: true }),
  });
}
