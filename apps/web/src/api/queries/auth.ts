import { ApiPath, ResponseCode, type CodePurposeValue, type DemoSessionView } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { ApiError, http } from '../http';
import type { AreaCode, BasicInfo, Captcha, LoginResult } from '../types';
import { STALE_REFERENCE } from './staleTimes';

export const authKeys = {
  all: ['auth'] as const,
  areas: () => [...authKeys.all, 'areas'] as const,
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
  /** The captcha id and its text, once the server asks for them (after several wrong passwords). */
  key?: string;
  captcha?: string;
}

export function useLoginMutation() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: (form: LoginForm) => http.post<LoginResult>(ApiPath.login, { ...form }, { form: true, loading: true }),
    onSuccess: signIn,
  });
}

/**
 * Back into this device's demo account with the secret it kept, or, without one (or when the server no
 * longer knows it), a new demo account whose secret is kept for next time.
 */
export function useDemoMutation() {
  const signIn = useSignIn();
  return useMutation({
    mutationFn: async () => {
      const saved = useSession.getState().demo;
      if (saved) {
        try {
          return await http.get<DemoSessionView>(
            ApiPath.createDemo,
            { demo_id: saved.id, demo_secret: saved.secret },
            { loading: true, silent: true },
          );
        } catch (error) {
          // Only the server's "no such demo account" forgets the key; offline or limited, it is kept.
          const unknown =
            error instanceof ApiError && (error.code === ResponseCode.notFound || error.code === ResponseCode.invalidInput);
          if (!unknown) throw error;
          useSession.getState().rememberDemo(null);
        }
      }
      return http.get<DemoSessionView>(ApiPath.createDemo, undefined, { loading: true });
    },
    onSuccess: (result) => {
      if (result.demo_secret) useSession.getState().rememberDemo({ id: String(result.user.uid), secret: result.demo_secret });
      signIn(result);
    },
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
  /** ISO 3166 code of the country of residence. */
  country: string;
  /** The risk disclosure version read and accepted. */
  risk_disclosure_version?: number;
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
    mutationFn: async () => {
      // The person leaves: the session kept for the one-tap switch to their other account ends too.
      const kept = useSession.getState().kept;
      if (kept) {
        await http
          .post<unknown>(ApiPath.logout, undefined, { silent: true, initial: true, token: kept.token })
          .catch(() => undefined);
      }
      return http.post<unknown>(ApiPath.logout, undefined, { silent: true });
    },
  });
}
