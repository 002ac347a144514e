import { invalid, safeText } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { DEFAULT_SETTINGS, type SettingKey } from '../../db/seed.js';
import { ok } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import type { SettingsService } from './service.js';

const flag = z.enum(['0', '1']);
const nonNegative = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/);
const positiveInteger = z.string().regex(/^[1-9]\d{0,8}$/);

/** What each setting may hold: a value its readers can always parse. */
const SETTING_RULES: Record<SettingKey, z.ZodType<string>> = {
  verify_reg_type: z.enum(['1', '2', '3']),
  is_show_mobile: flag,
  service_link: safeText().max(2000),
  service_link_type: z.enum(['1', '2', '3']),
  trade_fee_type: z.enum(['1', '2']),
  demo_start_balance: nonNegative,
  stop_out_level: nonNegative,
  complaint_email: safeText().max(254),
  withdraw_requires_kyc: flag,
  payout_method_cooldown_hours: nonNegative,
  deposit_expiry_days: positiveInteger,
  restricted_countries: z.string().regex(/^([A-Z]{2}(,[A-Z]{2})*)?$/),
};

/** The operator API of settings, until the back office has its screens and operator accounts. */
export function settingsRoutes(settings: SettingsService, config: Config) {
  return (app: FastifyInstance) => {
    app.get('/admin/api/settings', async (request) => {
      requireOperator(request, config);
      return ok(request, await settings.values());
    });

    app.post('/admin/api/settings', async (request) => {
      requireOperator(request, config);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const changes: Partial<Record<SettingKey, string>> = {};
      for (const [key, value] of Object.entries(body)) {
        if (!Object.hasOwn(DEFAULT_SETTINGS, key)) throw invalid('operator_setting_unknown', { field: key });
        const parsed = SETTING_RULES[key as SettingKey].safeParse(value);
        if (!parsed.success) throw invalid('field_invalid', { field: key });
        changes[key as SettingKey] = parsed.data;
      }
      await settings.set(changes);
      return ok(request, await settings.values());
    });
  };
}
