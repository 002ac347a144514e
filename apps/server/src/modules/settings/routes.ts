import {
  forbidden,
  invalid,
  MONEY_SETTING_KEYS,
  SETTING_RULES,
  ZPendingChangeRefView,
  ZSettingsView,
  type OperatorRole,
  type SettingRule,
  type SettingsView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_SETTINGS, type SettingKey } from '../../db/seed.js';
import { ok } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator, type OperatorPrincipal } from '../../http/operator.js';
import type { SettingsService } from './service.js';

/** Every stored setting has its rule (the compiler checks the domain's table against the stored keys). */
const RULES: Record<SettingKey, SettingRule> = SETTING_RULES;

const MONEY_SETTINGS: ReadonlySet<string> = new Set(MONEY_SETTING_KEYS);

/**
 * The bodies as the OpenAPI documents show them, made of the rules `checkedValue` applies key by key (the
 * routes check each key themselves, so an unknown one gets its own message).
 */
const ZSettingValue = z.object({ value: z.union([z.string(), z.number()]) });
const ZSettingsChange = z
  .object(Object.fromEntries(Object.entries(RULES).map(([key, rule]) => [key, rule.schema.optional()])))
  .describe('the settings to change, all or nothing');
const ZSettingParams = z.object({ key: z.enum(Object.keys(RULES)) });
const changed = answers(z.union([ZSettingsView, ZPendingChangeRefView]));

/**
 * Whether an operator of `role` may change `key` (the route lets content in; this decides per key): the
 * settings that move money or risk are the superadmins' alone, so nobody who works the money queues can
 * move the controls over their own decisions.
 */
export const mayChangeSetting = (role: OperatorRole, key: SettingKey) =>
  role === 'superadmin' || (role === 'content' && !MONEY_SETTINGS.has(key));

/** A setting's new value as its readers parse it; a JSON number is taken as the text it spells. */
function checkedValue(key: string, value: unknown): { key: SettingKey; value: string } {
  if (!Object.hasOwn(DEFAULT_SETTINGS, key)) throw invalid('operator_setting_unknown', { field: key });
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const parsed = RULES[key as SettingKey].schema.safeParse(text);
  if (!parsed.success) throw invalid('field_invalid', { field: key });
  return { key: key as SettingKey, value: parsed.data };
}

function checkRole(operator: OperatorPrincipal, key: SettingKey) {
  if (!mayChangeSetting(operator.role, key)) throw forbidden('setting_role_forbidden', { key });
}

/**
 * Applies the change and answers the settings in force, or — when it weakens a control — answers the
 * change that waits for a second superadmin (`pending_change`), with nothing written yet.
 */
async function apply(settings: SettingsService, changes: Partial<Record<SettingKey, string>>, request: FastifyRequest) {
  const operator = requireOperator(request);
  const { pending } = await settings.change(changes, { ...operator, ip: request.ip });
  if (pending) return ok(request, { pending_change: pending }, 'setting_change_pending');
  return ok<SettingsView>(request, await settings.values());
}

/**
 * The back office's settings: read by content and finance; money settings changed only by a superadmin,
 * the others by content too, with an audit row of its old and new value in the same transaction. A change
 * that weakens a control waits for a second superadmin (`/admin/api/changes`).
 */
export function settingsRoutes(settings: SettingsService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get('/admin/api/settings', { schema: { response: answers(ZSettingsView) } }, async (request) => {
      requireOperator(request);
      return ok<SettingsView>(request, await settings.values());
    });

    const one = { params: ZSettingParams, body: ZSettingValue, response: changed };
    app.put<{ Params: { key: string } }>('/admin/api/settings/:key', { schema: one }, async (request) => {
      const operator = requireOperator(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      if (!Object.hasOwn(body, 'value')) throw invalid('field_required', { field: 'value' });
      const change = checkedValue(request.params.key, body.value);
      checkRole(operator, change.key);
      return apply(settings, { [change.key]: change.value }, request);
    });

    /** Several keys at once (`{key: value, …}`), each checked as PUT checks it; all or nothing. */
    app.post('/admin/api/settings', { schema: { body: ZSettingsChange, response: changed } }, async (request) => {
      const operator = requireOperator(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const changes: Partial<Record<SettingKey, string>> = {};
      for (const [key, value] of Object.entries(body)) {
        const change = checkedValue(key, value);
        checkRole(operator, change.key);
        changes[change.key] = change.value;
      }
      return apply(settings, changes, request);
    });
  };
}
