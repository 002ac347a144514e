import { z } from 'zod';
import {
  PUBLIC_SETTING_KEYS,
  type AreaView,
  type BasicInfoView,
  type CaptchaView,
  type DemoSessionView,
  type InviteInfoView,
  type SessionView,
  type UserView,
} from '../schemas/accounts.js';

/**
 * Answer schemas of the accounts routes, for the OpenAPI documents. Each `satisfies` its view type and the
 * server's routes are typed by them, so a field added to one side only is a compile error.
 */

export const ZUserView = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  email: z.string(),
  mobile: z.string(),
  area_code: z.string().describe('dialling code, e.g. "+852"; "" without a phone'),
  is_demo: z.union([z.literal(0), z.literal(1)]),
  invite_code: z.string(),
  invited_count: z.number().int(),
  country: z.string().describe('ISO 3166 code of the country of residence; "" when not asked'),
  risk_disclosure_version: z.number().int().nullable().describe('the risk disclosure version last accepted'),
  risk_disclosure_due: z.union([z.literal(0), z.literal(1)]).describe('1: orders are refused (1010) until accepted'),
}) satisfies z.ZodType<UserView>;

export const ZSessionView = z.object({ token: z.string(), user: ZUserView }) satisfies z.ZodType<SessionView>;

export const ZDemoSessionView = ZSessionView.extend({
  demo_secret: z.string().optional().describe('only for a new demo account: needed to come back to it'),
}) satisfies z.ZodType<DemoSessionView>;

export const ZCodeSentView = z.object({
  resend_after: z.number().int().describe('seconds'),
  expires_in: z.number().int().describe('seconds'),
});

export const ZInviteInfoView = z.object({
  invite_code: z.string(),
  invited_count: z.number().int(),
}) satisfies z.ZodType<InviteInfoView>;

export const ZAreaView = z.object({
  id: z.number().int(),
  code: z.string(),
  global_code: z.string(),
  name: z.string(),
}) satisfies z.ZodType<AreaView>;

export const ZPublicSettingView = z.object({ key: z.enum(PUBLIC_SETTING_KEYS), value: z.union([z.string(), z.number()]) });

export const ZBasicInfoView = z.object({
  service_link: z.string(),
  service_link_type: z.number().int(),
  verify_reg_type: z.number().int(),
  trade_fee_type: z.number().int(),
  is_show_mobile: z.number().int(),
  complaint_email: z.string(),
  restricted_countries: z.string().describe('ISO 3166 codes, comma-separated'),
  risk_disclosure_version: z.number().int().describe('the risk disclosure in force'),
}) satisfies z.ZodType<BasicInfoView>;

export const ZCaptchaView = z.object({
  id: z.string(),
  b64s: z.string().describe('data:image/svg+xml;base64,…'),
}) satisfies z.ZodType<CaptchaView>;
