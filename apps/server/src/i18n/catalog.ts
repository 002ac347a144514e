import { LANGUAGE_LOCALES, LANGUAGES, resolveLanguage, type Language } from '@pipwise/domain';
import core from './core.messages.json' with { type: 'json' };
import fields from './fields.messages.json' with { type: 'json' };
import accounts from '../modules/accounts/messages.json' with { type: 'json' };
import wallet from '../modules/wallet/messages.json' with { type: 'json' };
import market from '../modules/market/messages.json' with { type: 'json' };
import trading from '../modules/trading/messages.json' with { type: 'json' };
import content from '../modules/content/messages.json' with { type: 'json' };
import identity from '../modules/identity/messages.json' with { type: 'json' };
import uploads from '../modules/uploads/messages.json' with { type: 'json' };
import deposits from '../modules/deposits/messages.json' with { type: 'json' };
import withdrawals from '../modules/withdrawals/messages.json' with { type: 'json' };
import feedback from '../modules/feedback/messages.json' with { type: 'json' };
import notices from '../modules/notices/messages.json' with { type: 'json' };
import companies from '../modules/companies/messages.json' with { type: 'json' };
import operators from '../modules/operators/messages.json' with { type: 'json' };
import marketOperator from '../modules/market/operator-messages.json' with { type: 'json' };
import contentOperator from '../modules/content/operator-messages.json' with { type: 'json' };
import companiesOperator from '../modules/companies/operator-messages.json' with { type: 'json' };
import settingsOperator from '../modules/settings/operator-messages.json' with { type: 'json' };
import depositChannelsOperator from '../modules/deposits/channels-messages.json' with { type: 'json' };
import withdrawCurrenciesOperator from '../modules/withdrawals/currencies-messages.json' with { type: 'json' };
import reviews from '../modules/reviews/operator-messages.json' with { type: 'json' };
import adjustmentMails from '../modules/reviews/messages.json' with { type: 'json' };
import backofficeUsers from '../modules/backoffice-users/messages.json' with { type: 'json' };
import backofficeUsersOperator from '../modules/backoffice-users/operator-messages.json' with { type: 'json' };
import copy from '../modules/copy/messages.json' with { type: 'json' };
import copyOperator from '../modules/copy/operator-messages.json' with { type: 'json' };
import strategies from '../modules/strategies/messages.json' with { type: 'json' };

/**
 * A text where a number meets a noun ("1 minute", "5 minutes"; Russian and Arabic have more forms): one
 * template per plural category of the language (Intl.PluralRules), chosen by the number in param `by`.
 */
export type PluralText = { by: string } & Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** One message key → its text in every language. Each module owns a catalogue file beside its code. */
export type Catalogue = Record<string, Partial<Record<Language, string | PluralText>>>;

export const catalogues: Record<string, Catalogue> = {
  core,
  fields,
  accounts,
  wallet,
  trading,
  market,
  content,
  uploads,
  identity,
  deposits,
  withdrawals,
  feedback,
  companies,
  notices,
  backofficeUsers,
  adjustmentMails,
  copy,
  strategies,
};

/**
 * Messages only operators read (the back office): English and Traditional Chinese at least; other
 * languages fall back to English.
 */
export const OPERATOR_LANGUAGES = ['en', 'hk'] as const satisfies readonly Language[];
export const operatorCatalogues: Record<string, Catalogue> = {
  operators,
  marketOperator,
  contentOperator,
  companiesOperator,
  settingsOperator,
  depositChannelsOperator,
  withdrawCurrenciesOperator,
  backofficeUsersOperator,
  reviews,
  copyOperator,
};

const messages = new Map<string, Partial<Record<Language, string | PluralText>>>();
for (const [name, catalogue] of Object.entries({ ...catalogues, ...operatorCatalogues })) {
  for (const [key, texts] of Object.entries(catalogue)) {
    if (messages.has(key)) throw new Error(`message key ${key} of catalogue ${name} is defined twice`);
    messages.set(key, texts);
  }
}

export const hasMessage = (key: string) => messages.has(key);

/**
 * Messages about one field (`field` holds its name in the request): the field's label in the reader's
 * language fills them, and a field without a label gets the same message without a name, so a request's
 * raw key never shows inside translated text.
 */
const ABOUT_A_FIELD = new Map([
  ['field_invalid', 'value_invalid'],
  ['field_required', 'value_required'],
  ['field_characters_invalid', 'value_characters_invalid'],
]);

/** Text of `key` in `lang` (its plural form for the counted param) with `{{name}}` placeholders filled; English, then the key, when missing. */
export function translate(lang: string, key: string, params: Record<string, string | number> = {}): string {
  const unnamed = ABOUT_A_FIELD.get(key);
  if (unnamed !== undefined) {
    // A nested field (`items.0.name`) is labelled by its own name.
    const label = `field_label_${String(params.field ?? '').replace(/^.*\./, '')}`;
    if (!messages.has(label)) return translate(lang, unnamed, params);
    params = { ...params, field: translate(lang, label) };
  }
  const texts = messages.get(key);
  const language = resolveLanguage(lang);
  const text = texts?.[language] ?? texts?.en ?? key;
  const template = typeof text === 'string' ? text : pluralForm(language, text, params);
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

const pluralRules = Object.fromEntries(
  LANGUAGES.map((language) => [language, new Intl.PluralRules(LANGUAGE_LOCALES[language])]),
) as Record<Language, Intl.PluralRules>;

/** The template of the category the counted number falls in (a decimal such as "0.01" counts too). */
function pluralForm(language: Language, text: PluralText, params: Record<string, string | number>): string {
  const count = Number(params[text.by]);
  const category = Number.isFinite(count) ? pluralRules[language].select(count) : 'other';
  return text[category] ?? text.other;
}

export { LANGUAGES };
