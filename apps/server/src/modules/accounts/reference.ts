import {
  AccountType,
  LANGUAGE_LOCALES,
  notFound,
  rejected,
  PUBLIC_SETTING_KEYS,
  VerifyRegType,
  type AreaView,
  type BasicInfoView,
  type Language,
  type PublicSettingKey,
} from '@pipwise/domain';
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { areaCodes } from '../../db/schema.js';
import type { SettingKey } from '../../db/seed.js';
import type { SettingsService } from '../settings/service.js';

export interface Area {
  id: number;
  /** ISO 3166 country code, e.g. "HK". */
  code: string;
  /** Dialling code with the plus, e.g. "+852". */
  globalCode: string;
  name: string;
}

/** ISO 3166 codes of setting `restricted_countries` ("KP, il ,CN" reads as KP, IL, CN; anything else is ignored). */
export function parseCountryList(value: string): string[] {
  return value
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => /^[A-Z]{2}$/.test(code));
}

/** The countries' names in the language, as one list ("North Korea, Israel and China"). */
export function countryNames(codes: string[], lang: Language): string {
  const locale = LANGUAGE_LOCALES[lang];
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(codes.map((code) => names.of(code) ?? code));
}

/** Settings whose public value is a number; the rest are text. */
const NUMERIC_SETTINGS = new Set<string>([
  'is_show_mobile',
  'verify_reg_type',
  'service_link_type',
  'trade_fee_type',
  'risk_disclosure_version',
]);

export interface RegistrationPolicy {
  email: boolean;
  phone: boolean;
}

/**
 * Reference data: area codes and the public view of the settings. Settings come from the settings
 * service, whose copy a change drops in every process; the area list is seeded at start-up and cached.
 */
export class ReferenceService {
  private areas: Area[] | null = null;

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
  ) {}

  async listAreas(): Promise<Area[]> {
    this.areas ??= await this.db
      .select({ id: areaCodes.id, code: areaCodes.code, globalCode: areaCodes.globalCode, name: areaCodes.name })
      .from(areaCodes)
      .orderBy(asc(areaCodes.name));
    return this.areas;
  }

  async areaById(id: number): Promise<Area | undefined> {
    return (await this.listAreas()).find((area) => area.id === id);
  }

  async areaViews(): Promise<AreaView[]> {
    return (await this.listAreas()).map((a) => ({ id: a.id, code: a.code, global_code: a.globalCode, name: a.name }));
  }

  /** A setting's value, or its default when the row is missing. */
  get(key: SettingKey): Promise<string> {
    return this.settings.get(key);
  }

  /** Every public setting, numbers as numbers. */
  private async publicValues(): Promise<Record<PublicSettingKey, string | number>> {
    const values = await this.settings.values();
    const entries = PUBLIC_SETTING_KEYS.map((key) => {
      const value = values[key];
      return [key, NUMERIC_SETTINGS.has(key) ? Number(value) : value] as const;
    });
    return Object.fromEntries(entries) as Record<PublicSettingKey, string | number>;
  }

  async publicSetting(key: string): Promise<{ key: PublicSettingKey; value: string | number }> {
    const known = PUBLIC_SETTING_KEYS.find((k) => k === key);
    if (!known) throw notFound('setting_unknown', { key });
    return { key: known, value: (await this.publicValues())[known] };
  }

  async basicInfo(): Promise<BasicInfoView> {
    const values = await this.publicValues();
    return {
      service_link: String(values.service_link),
      service_link_type: Number(values.service_link_type),
      verify_reg_type: Number(values.verify_reg_type),
      trade_fee_type: Number(values.trade_fee_type),
      is_show_mobile: Number(values.is_show_mobile),
      complaint_email: String(values.complaint_email),
      restricted_countries: String(values.restricted_countries),
      risk_disclosure_version: Number(values.risk_disclosure_version),
    };
  }

  /**
   * Which registration methods are open. verify_reg_type 1 email, 2 phone, 3 either; with 3, the phone
   * option is offered only while is_show_mobile is 1 (with 2 phone is the only way, so it stays open).
   */
  async registrationPolicy(): Promise<RegistrationPolicy> {
    const type = Number(await this.get('verify_reg_type'));
    const showMobile = (await this.get('is_show_mobile')) === '1';
    return {
      email: type === VerifyRegType.email || type === VerifyRegType.either,
      phone: type === VerifyRegType.phone || (type === VerifyRegType.either && showMobile),
    };
  }

  /**
   * The policy notice (docs/api.md) as a refusal when any of `countries` (a phone's area and the country its
   * number belongs to) is one the service is not provided to, naming them all in the request's language.
   */
  async refuseRestricted(countries: string[], lang: Language): Promise<void> {
    const restricted = parseCountryList(await this.get('restricted_countries'));
    if (countries.some((country) => restricted.includes(country))) {
      throw rejected('policy_restricted', { countries: countryNames(restricted, lang) });
    }
  }

  async allows(policyType: (typeof AccountType)[keyof typeof AccountType]): Promise<boolean> {
    const policy = await this.registrationPolicy();
    return policyType === AccountType.email ? policy.email : policy.phone;
  }
}
