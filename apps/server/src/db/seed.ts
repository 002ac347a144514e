import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { areaCodes, settings } from './schema.js';

/**
 * Settings and their defaults. Existing values are never overwritten, so an operator's change survives
 * restarts; new keys appear on upgrade.
 */
export const DEFAULT_SETTINGS = {
  /** 1: register by email; 2: by phone; 3: either. */
  verify_reg_type: '1',
  /** 1 shows the phone option on the registration form. */
  is_show_mobile: '1',
  service_link: '',
  /** 1 in-app chat, 2 copy dialog, 3 external navigation (docs/api.md). */
  service_link_type: '1',
  /** 1: fee = lots × fee rate; otherwise fee = margin × fee rate (docs/api.md). */
  trade_fee_type: '2',
  demo_start_balance: '100000',
  /** Margin level (equity ÷ used margin, %) at or below which positions are stopped out. */
  stop_out_level: '50',
  /** Margin level (%) at or below which (and above the stop-out) the trader is warned, in the app and by e-mail. */
  margin_call_level: '100',
  complaint_email: 'complaints@pipwise.local',
  /** 1: withdrawals only after real-name verification (docs/product.md). */
  withdraw_requires_kyc: '1',
  /** Hours a newly bound payout method waits before it can receive a withdrawal. */
  payout_method_cooldown_hours: '24',
  /** Days an unchecked deposit waits before it turns invalid. */
  deposit_expiry_days: '7',
  /** ISO 3166 codes of the countries the service is not provided to (docs/api.md policy notice). */
  restricted_countries: 'KP,IL,CN,VU,CU',
  /** The risk disclosure in force: raising it asks every real account to read and accept it again before trading. */
  risk_disclosure_version: '1',
  /** USD amount above which a withdrawal needs two operators' approvals (four-eyes). */
  withdraw_four_eyes_above: '10000',
  /** Hours an operator-set withdraw rate (a currency without a market pair) stays usable after it was set. */
  withdraw_rate_max_age_hours: '24',
  /** Minutes an operator's claim on a review-queue item lasts before someone else may take it. */
  review_claim_minutes: '15',
  /** Copy trading: a provider is listed once this many days passed since their first closed position… */
  copy_min_days: '14',
  /** …and they closed this many positions. */
  copy_min_trades: '20',
  /** The least amount (USD) a follower may copy with. */
  copy_min_amount: '50',
  /** The highest performance fee (percent of profit) a provider may ask. */
  copy_fee_max_pct: '30',
  /** Minutes a provider's open position is held back from their public profile, so nobody front-runs it. */
  copy_public_delay_minutes: '30',
  /**
   * 1: on the simulated feed, the broker's automated demo strategies trade and are listed for copying
   * (modules/strategies); they never run on a real feed whatever this says.
   */
  copy_strategies_enabled: '1',
} as const;

export type SettingKey = keyof typeof DEFAULT_SETTINGS;

/** Every country and territory with its dialling code, named in English by the runtime's ICU data. */
export function worldAreaCodes() {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, globalCode: `+${getCountryCallingCode(code)}` }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export async function seedReferenceData(db: Executor) {
  await db
    .insert(settings)
    .values(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
  await db
    .insert(areaCodes)
    .values(worldAreaCodes())
    .onConflictDoUpdate({ target: areaCodes.code, set: { name: sql`excluded.name`, globalCode: sql`excluded.global_code` } });
}
