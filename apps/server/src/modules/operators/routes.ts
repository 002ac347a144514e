import {
  ChangeStatus,
  invalid,
  isOperatorPasswordLongEnough,
  OPERATOR_PASSWORD_MIN_LENGTH,
  ZChangesQuery,
  ZEnrolmentBeginRequest,
  ZEnrolmentFinishRequest,
  ZOperatorCreateRequest,
  ZOperatorIdParams,
  ZOperatorLoginRequest,
  ZOperatorPasswordRequest,
  ZOperatorRoleRequest,
  ZCaptchaView,
  ZChangeApprovalView,
  ZEnrolmentStartView,
  ZOperatorEnrolmentView,
  ZOperatorRowView,
  ZOperatorSessionView,
  ZOperatorSignInView,
  ZPendingChangeRefView,
  ZPendingChangeView,
  ZSignedInOperatorView,
  type ChangeApprovalView,
  type EnrolmentStartView,
  type OperatorEnrolmentView,
  type OperatorRowView,
  type OperatorSessionView,
  type OperatorSignInView,
  type SignedInOperatorView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import { presentChange, type ApprovalsService } from './approvals.js';
import type { Captcha } from './module.js';
import type { OperatorsService, OperatorView } from './service.js';

const view = (operator: OperatorView): OperatorRowView => ({
  id: operator.id,
  email: operator.email,
  role: operator.role,
  disabled: operator.disabled,
  created_by: operator.createdBy,
  created_at: operator.createdAt,
});

function idOf(params: unknown, key: string): number {
  const parsed = ZOperatorIdParams.safeParse(params);
  if (!parsed.success) throw invalid(key);
  return parsed.data.id;
}

export function operatorRoutes(operators: OperatorsService, approvals: ApprovalsService, captcha: Captcha) {
  const params = ZOperatorIdParams;
  const nothing = answers(z.null());
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    /** The accounts' captcha, for a login that has to step up. */
    app.get('/admin/api/captcha', { schema: { response: answers(ZCaptchaView) } }, async (request) =>
      ok(request, await captcha.issue()),
    );

    /** The enrolment link's first step: the new operator's TOTP secret, for their authenticator app. */
    const begin = { body: ZEnrolmentBeginRequest, response: answers(ZEnrolmentStartView) };
    app.post('/admin/api/enrolment/begin', { schema: begin }, async (request) => {
      const parsed = ZEnrolmentBeginRequest.safeParse(request.body);
      if (!parsed.success) throw invalid('operator_enrolment_invalid');
      return ok<EnrolmentStartView>(request, await operators.beginEnrolment(parsed.data.token));
    });

    /** The enrolment's end: their own password and a code of that secret; answers a session, as a login does. */
    const finish = { body: ZEnrolmentFinishRequest, response: answers(ZOperatorSignInView) };
    app.post('/admin/api/enrolment/finish', { schema: finish }, async (request) => {
      const parsed = ZEnrolmentFinishRequest.safeParse(request.body);
      if (!parsed.success) throw invalid('operator_enrolment_invalid');
      if (!isOperatorPasswordLongEnough(parsed.data.password))
        throw invalid('operator_password_invalid', { min: OPERATOR_PASSWORD_MIN_LENGTH });
      const session: OperatorSignInView = await operators.finishEnrolment(parsed.data, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return ok(request, session);
    });

    const changes = { querystring: ZChangesQuery, response: answers(z.array(ZPendingChangeView)) };
    app.get('/admin/api/changes', { schema: changes }, async (request) => {
      requireOperator(request);
      const parsed = ZChangesQuery.safeParse(request.query ?? {});
      const status = parsed.success && parsed.data.status !== undefined ? Number(parsed.data.status) : ChangeStatus.waiting;
      return ok(request, (await approvals.list(status)).map(presentChange));
    });

    app.post(
      '/admin/api/changes/:id/approve',
      { schema: { params, response: answers(ZChangeApprovalView) } },
      async (request) => {
        const operator = requireOperator(request);
        const { change, result } = await approvals.approve(idOf(request.params, 'change_not_found'), {
          ...operator,
          ip: request.ip,
        });
        const answer: ChangeApprovalView = { change: presentChange(change), result };
        return ok(request, answer, 'change_approved');
      },
    );

    const rejected = answers(z.object({ change: ZPendingChangeView }));
    app.post('/admin/api/changes/:id/reject', { schema: { params, response: rejected } }, async (request) => {
      const operator = requireOperator(request);
      const change = await approvals.reject(idOf(request.params, 'change_not_found'), { ...operator, ip: request.ip });
      return ok(request, { change: presentChange(change) }, 'change_rejected');
    });

    const login = { body: ZOperatorLoginRequest, response: answers(ZOperatorSignInView) };
    app.post('/admin/api/login', { schema: login }, async (request) => {
      const parsed = ZOperatorLoginRequest.safeParse(request.body);
      if (!parsed.success) throw invalid('operator_login_failed');
      const session: OperatorSignInView = await operators.login(parsed.data, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return ok(request, session);
    });

    app.get('/admin/api/me', { schema: { response: answers(ZSignedInOperatorView) } }, async (request) => {
      const { id, email, role } = requireOperator(request);
      return ok<SignedInOperatorView>(request, { id, email, role });
    });

    app.post('/admin/api/logout', { schema: { response: nothing } }, async (request) => {
      await operators.logout(requireOperator(request), request.ip);
      return ok(request, null);
    });

    app.post('/admin/api/me/password', { schema: { body: ZOperatorPasswordRequest, response: nothing } }, async (request) => {
      const operator = requireOperator(request);
      const parsed = ZOperatorPasswordRequest.safeParse(request.body);
      if (!parsed.success || !isOperatorPasswordLongEnough(parsed.data.password)) {
        throw invalid('operator_password_invalid', { min: OPERATOR_PASSWORD_MIN_LENGTH });
      }
      await operators.changePassword(operator, parsed.data.current, parsed.data.password, request.ip);
      return ok(request, null);
    });

    app.get('/admin/api/me/sessions', { schema: { response: answers(z.array(ZOperatorSessionView)) } }, async (request) => {
      const sessions = await operators.sessions(requireOperator(request));
      return ok(
        request,
        sessions.map((session): OperatorSessionView => ({
          id: session.id,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          ip: session.ip,
          user_agent: session.userAgent,
          current: session.current,
        })),
      );
    });

    app.delete('/admin/api/me/sessions/:id', { schema: { params, response: nothing } }, async (request) => {
      const operator = requireOperator(request);
      await operators.revokeOwnSession(operator, idOf(request.params, 'operator_session_not_found'), request.ip);
      return ok(request, null);
    });

    app.get('/admin/api/operators', { schema: { response: answers(z.array(ZOperatorRowView)) } }, async (request) => {
      return ok(request, (await operators.list()).map(view));
    });

    const add = { body: ZOperatorCreateRequest, response: answers(z.union([ZOperatorEnrolmentView, ZPendingChangeRefView])) };
    app.post('/admin/api/operators', { schema: add }, async (request) => {
      const operator = requireOperator(request);
      const parsed = ZOperatorCreateRequest.safeParse(request.body);
      if (!parsed.success) throw invalid('operator_input_invalid');
      const added = await operators.add(parsed.data, { ...operator, ip: request.ip }, request.ip);
      if ('pending' in added) return ok(request, { pending_change: presentChange(added.pending) }, 'operator_added_pending');
      return ok<OperatorEnrolmentView>(request, added);
    });

    app.post('/admin/api/operators/:id/disable', { schema: { params, response: answers(ZOperatorRowView) } }, async (request) => {
      const operator = requireOperator(request);
      return ok(request, view(await operators.disable(idOf(request.params, 'operator_not_found'), operator, request.ip)));
    });

    const rowOrPending = answers(z.union([ZOperatorRowView, ZPendingChangeRefView]));
    app.post('/admin/api/operators/:id/enable', { schema: { params, response: rowOrPending } }, async (request) => {
      const operator = requireOperator(request);
      const enabled = await operators.enable(
        idOf(request.params, 'operator_not_found'),
        { ...operator, ip: request.ip },
        request.ip,
      );
      if ('pending' in enabled) return ok(request, { pending_change: presentChange(enabled.pending) }, 'operator_enable_pending');
      return ok(request, view(enabled));
    });

    app.post(
      '/admin/api/operators/:id/reset',
      { schema: { params, response: answers(ZOperatorEnrolmentView) } },
      async (request) => {
        const operator = requireOperator(request);
        return ok<OperatorEnrolmentView>(
          request,
          await operators.reset(idOf(request.params, 'operator_not_found'), operator, request.ip),
        );
      },
    );

    const role = { params, body: ZOperatorRoleRequest, response: rowOrPending };
    app.put('/admin/api/operators/:id/role', { schema: role }, async (request) => {
      const operator = requireOperator(request);
      const id = idOf(request.params, 'operator_not_found');
      const parsed = ZOperatorRoleRequest.safeParse(request.body);
      if (!parsed.success) throw invalid('operator_input_invalid');
      const changed = await operators.setRole(id, parsed.data.role, { ...operator, ip: request.ip }, request.ip);
      if ('pending' in changed) return ok(request, { pending_change: presentChange(changed.pending) }, 'operator_role_pending');
      return ok(request, view(changed));
    });
  };
}
