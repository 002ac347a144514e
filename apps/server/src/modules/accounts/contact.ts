import { invalid } from '@pipwise/domain';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { Area } from './reference.js';

const emailFormat = z.email();

/** Emails are compared case-insensitively; stored and addressed in lower case. */
export function normaliseEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (!emailFormat.safeParse(email).success) throw invalid('email_invalid');
  return email;
}

export interface Phone {
  areaId: number;
  /** National significant number, as stored in users.phone. */
  national: string;
  /** E.164, where SMS go and what verification codes are bound to. */
  e164: string;
  globalCode: string;
  /** ISO codes of the chosen area and of the country the number belongs to (they differ where a dialling code is shared). */
  countries: string[];
}

/**
 * A phone number valid for the area's country (with or without its dialling code). Areas sharing a
 * dialling code (+1, +44, +7 …) accept each other's numbers, as the networks do.
 */
export function normalisePhone(input: string, area: Area): Phone {
  const parsed = parsePhoneNumberFromString(input.trim(), area.code as CountryCode);
  if (!parsed?.isValid() || `+${parsed.countryCallingCode}` !== area.globalCode) throw invalid('phone_invalid');
  const countries = parsed.country && parsed.country !== area.code ? [area.code, parsed.country] : [area.code];
  return { areaId: area.id, national: parsed.nationalNumber, e164: parsed.number, globalCode: area.globalCode, countries };
}

export interface PhoneLoginCandidate {
  /** Dialling code, e.g. "+852", when the input carried one. */
  globalCode?: string;
  national: string;
}

/**
 * The ways a phone login may be meant: "+852 9123 4567", "0085291234567", "85291234567" (dialling code
 * without the plus) or "91234567" / "07911123456" (national, with or without the trunk 0).
 */
export function phoneLoginCandidates(input: string): PhoneLoginCandidate[] {
  const compact = input.replace(/[\s\-().]/g, '');
  const international = compact.startsWith('+') ? compact : compact.startsWith('00') ? `+${compact.slice(2)}` : null;
  const candidates: PhoneLoginCandidate[] = [];
  const addInternational = (value: string) => {
    const parsed = parsePhoneNumberFromString(value);
    if (parsed) candidates.push({ globalCode: `+${parsed.countryCallingCode}`, national: parsed.nationalNumber });
  };
  if (international) {
    addInternational(international);
    return candidates;
  }
  if (!/^\d{4,20}$/.test(compact)) return candidates;
  candidates.push({ national: compact });
  const withoutTrunk = compact.replace(/^0+/, '');
  if (withoutTrunk !== compact && withoutTrunk) candidates.push({ national: withoutTrunk });
  addInternational(`+${compact}`);
  return candidates;
}

/**
 * The name a user shows publicly (the leaderboard): the first characters of the e-mail's local part
 * (never all of it) and its domain, or the last 4 digits of the phone; the full contact never leaves.
 */
export function maskedName(contact: { email: string | null; phone: string | null }): string {
  if (contact.email) {
    const at = contact.email.lastIndexOf('@');
    const local = contact.email.slice(0, at);
    return `${local.slice(0, Math.min(2, local.length - 1))}***${contact.email.slice(at)}`;
  }
  if (contact.phone) return `***${contact.phone.slice(-4)}`;
  return '***';
}
