import {
  ApiPath,
  ZAreaView,
  ZBasicInfoView,
  ZCaptchaView,
  ZCodeSentView,
  ZDemoSessionView,
  ZInviteInfoView,
  ZPublicSettingView,
  ZSessionView,
  ZUserView,
  ZAcceptDisclosureRequest,
  ZAmendPasswordRequest,
  ZDemoRequest,
  ZForgetPasswordRequest,
  ZLoginRequest,
  ZOwnCodeRequest,
  ZRegisterRequest,
  ZSendCodeRequest,
  ZSettingQuery,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import type { CaptchaService } from './captcha.js';
import type { ReferenceService } from './reference.js';
import type { AccountsService, RequestMeta } from './service.js';

/** Per-IP limits (shared through Redis when REDIS_URL is set) where guessing or spamming is possible. */
export const ROUTE_LIMITS = {
  sendCode: { max: 10, timeWindow: '10 minutes' },
  captcha: { max: 30, timeWindow: '1 minute' },
  register: { max: 20, timeWindow: '10 minutes' },
  login: { max: 20, timeWindow: '1 minute' },
  demo: { max: 60, timeWindow: '10 minutes' },
  password: { max: 10, timeWindow: '10 minutes' },
} as const;

const limited = (rateLimit: { max: number; timeWindow: string }) => ({ config: { rateLimit } });

const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  lang: request.lang,
});

export function accountRoutes(service: AccountsService, reference: ReferenceService, captcha: CaptchaService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(ApiPath.captcha, { ...limited(ROUTE_LIMITS.captcha), schema: { response: answers(ZCaptchaView) } }, async (request) =>
      ok(request, await captcha.issue()),
    );

    for (const [path, channel] of [
      [ApiPath.sendEmail, 'email'],
      [ApiPath.sendSms, 'sms'],
    ] as const) {
      const schema = { body: ZSendCodeRequest, response: answers(ZCodeSentView) };
      app.post(path, { ...limited(ROUTE_LIMITS.sendCode), schema }, async (request) => {
        const input = parse(ZSendCodeRequest, request.body);
        return ok(request, await service.sendCode(channel, input, meta(request)), 'code_sent');
      });
    }

    const register = { body: ZRegisterRequest, response: answers(ZSessionView) };
    app.post(ApiPath.register, { ...limited(ROUTE_LIMITS.register), schema: register }, async (request) => {
      const input = parse(ZRegisterRequest, request.body);
      return ok(request, await service.register(input, meta(request)), 'register_success');
    });

    const login = { body: ZLoginRequest, response: answers(ZSessionView) };
    app.post(ApiPath.login, { ...limited(ROUTE_LIMITS.login), schema: login }, async (request) => {
      const input = parse(ZLoginRequest, request.body);
      return ok(request, await service.login(input, meta(request)), 'login_success');
    });

    const demo = { querystring: ZDemoRequest, response: answers(ZDemoSessionView) };
    app.get(ApiPath.createDemo, { ...limited(ROUTE_LIMITS.demo), schema: demo }, async (request) => {
      const { demo_id, demo_secret } = parse(ZDemoRequest, request.query);
      const demo = demo_id && demo_secret ? { id: demo_id, secret: demo_secret } : undefined;
      return ok(request, await service.demo(demo, meta(request)), 'demo_ready');
    });

    const switchToDemo = { body: ZDemoRequest, response: answers(ZDemoSessionView) };
    app.post(ApiPath.switchToDemo, { ...limited(ROUTE_LIMITS.demo), schema: switchToDemo }, async (request) => {
      const principal = requireUser(request);
      const { demo_id, demo_secret } = parse(ZDemoRequest, request.body ?? {});
      const deviceKey = demo_id && demo_secret ? { id: demo_id, secret: demo_secret } : undefined;
      return ok(request, await service.switchToDemo(principal, deviceKey, meta(request)), 'demo_ready');
    });

    const acceptDisclosure = { body: ZAcceptDisclosureRequest, response: answers(ZUserView) };
    app.post(ApiPath.acceptRiskDisclosure, { schema: acceptDisclosure }, async (request) => {
      const principal = requireUser(request);
      const input = parse(ZAcceptDisclosureRequest, request.body);
      return ok(request, await service.acceptDisclosure(principal, input), 'risk_disclosure_accepted');
    });

    app.get(ApiPath.userInfo, { schema: { response: answers(ZUserView) } }, async (request) =>
      ok(request, await service.view(requireUser(request).userId)),
    );

    const amend = { body: ZAmendPasswordRequest, response: answers(z.null()) };
    app.post(ApiPath.amendPassword, { ...limited(ROUTE_LIMITS.password), schema: amend }, async (request) => {
      const principal = requireUser(request);
      await service.amendPassword(principal, parse(ZAmendPasswordRequest, request.body), meta(request));
      return ok(request, null, 'password_changed');
    });

    const ownCode = { body: ZOwnCodeRequest, response: answers(ZCodeSentView) };
    app.post(ApiPath.passwordCode, { ...limited(ROUTE_LIMITS.sendCode), schema: ownCode }, async (request) => {
      const principal = requireUser(request);
      return ok(
        request,
        await service.sendOwnCode(principal, parse(ZOwnCodeRequest, request.body ?? {}), meta(request)),
        'code_sent',
      );
    });

    app.get(ApiPath.inviteInfo, { schema: { response: answers(ZInviteInfoView) } }, async (request) =>
      ok(request, await service.inviteInfo(requireUser(request))),
    );

    const forget = { body: ZForgetPasswordRequest, response: answers(z.null()) };
    app.post(ApiPath.forgetPassword, { ...limited(ROUTE_LIMITS.password), schema: forget }, async (request) => {
      await service.forgetPassword(parse(ZForgetPasswordRequest, request.body), meta(request));
      return ok(request, null, 'password_reset');
    });

    app.post(ApiPath.logout, { schema: { response: answers(z.null()) } }, async (request) => {
      requireUser(request);
      if (request.token) await service.revokeToken(request.token);
      return ok(request, null, 'logged_out');
    });

    app.get(ApiPath.areaList, { schema: { response: answers(z.array(ZAreaView)) } }, async (request) =>
      ok(request, await reference.areaViews()),
    );

    app.get(
      ApiPath.setting,
      { schema: { querystring: ZSettingQuery, response: answers(ZPublicSettingView) } },
      async (request) => {
        const { key } = parse(ZSettingQuery, request.query);
        return ok(request, await reference.publicSetting(key));
      },
    );

    app.get(ApiPath.basicInfo, { schema: { response: answers(ZBasicInfoView) } }, async (request) =>
      ok(request, await reference.basicInfo()),
    );
  };
}
