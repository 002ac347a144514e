import {
  forbidden,
  invalid,
  MONEY_SETTING_KEYS,
  ZComplaintEmailSetting,
  ZServiceLinkSetting,
  type OperatorRole,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEFAULT_SETTINGS, type SettingKey } from '../../db/seed.js';
import { ok } from '../../http/envelope.js';
import { allow, requireOperator, type OperatorPrincipal } from '../../http/operator.js';
import type { SettingsService } from './service.js';

const flag = z.enum(['0', '1']);
const nonNegative = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/);
const positiveInteger = z.string().regex(/^[1-9]\d{0,8}$/);

/** What each setting may hold: a value its readers can always parse. */
const SETTING_RULES: Record<SettingKey, z.ZodType<string>> = {
  verify_reg_type: z.enum(['1', '2', '3']),
  is_show_mobile: flag,
  service_link: ZServiceLinkSetting,
  service_link_type: z.enum(['1', '2', '3']),
  trade_fee_type: z.enum(['1', '2']),
  demo_start_balance: nonNegative,
  stop_out_level: nonNegative,
  complaint_email: ZComplaintEmailSetting,
  withdraw_requires_kyc: flag,
  payout_method_cooldown_hours: nonNegative,
  deposit_expiry_days: positiveInteger,
  restricted_countries: z.string().regex(/^([A-Z]{2}(,[A-Z]{2})*)?$/),
  withdraw_four_eyes_above: nonNegative,
  review_claim_minutes: positiveInteger,
};

const MONEY_SETTINGS: ReadonlySet<string> = new Set(MONEY_SETTING_KEYS);

/** Whether an operator of `role` may change `key` (the route lets content and finance in; this decides per key). */
export const mayChangeSetting = (role: OperatorRole, key: SettingKey) =>
  role === 'superadmin' || role === (MONEY_SETTINGS.has(key) ? 'finance' : 'content');

/** A setting's new value as its readers parse it; a JSON number is taken as the text it spells. */
function checkedValue(key: string, value: unknown): { key: SettingKey; value: string } {
  if (!Object.hasOwn(DEFAULT_SETTINGS, key)) throw invalid('operator_setting_unknown', { field: key });
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const parsed = SETTING_RULES[key as SettingKey].safeParse(text);
  if (!parsed.success) throw invalid('field_invalid', { field: key });
  return { key: key as SettingKey, value: parsed.data };
}

function checkRole(operator: OperatorPrincipal, key: SettingKey) {
  if (!mayChangeSetting(operator.role, key)) throw forbidden('setting_role_forbidden', { key });
}

/**
 * The back office's settings: read by content and finance; each key changed only by the role it belongs
 * to, with an audit row of its old and new value in the same transaction.
 */
export function settingsRoutes(settings: SettingsService) {
  return (app: FastifyInstance) => {
    app.get('/admin/api/settings', allow('content', 'finance'), async (request) => {
      requireOperator(request);
      return ok(request, await settings.values());
    });

    app.put<{ Params: { key: string } }>('/admin/api/settings/:key', allow('content', 'finance'), async (request) => {
      const operator = requireOperator(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      if (!Object.hasOwn(body, 'value')) throw invalid('field_required', { field: 'value' });
      const change = checkedValue(request.params.key, body.value);
      checkRole(operator, change.key);
      await settings.update({ [change.key]: change.value }, operator, request.ip);
      return ok(request, await settings.values());
    });

    /** Several keys at once (`{key: value, …}`), each checked as PUT checks it; all or nothing. */
    app.post('/admin/api/settings', allow('content', 'finance'), async (request) => {
      const operator = requireOperator(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const changes: Partial<Record<SettingKey, string>> = {};
      for (const [key, value] of Object.entries(body)) {
        const change = checkedValue(key, value);
        checkRole(operator, change.key);
        changes[change.key] = change.value;
      }
      await settings.update(changes, operator, request.ip);
      return ok(request, await settings.values());
    });
  };
}
