import { LANGUAGES, resolveLanguage, type Language } from '@pipwise/domain';
import core from './core.messages.json' with { type: 'json' };
import accounts from '../modules/accounts/messages.json' with { type: 'json' };
import wallet from '../modules/wallet/messages.json' with { type: 'json' };
import market from '../modules/market/messages.json' with { type: 'json' };
import trading from '../modules/trading/messages.json' with { type: 'json' };
import content from '../modules/content/messages.json' with { type: 'json' };

/** One message key → its text in every language. Each module owns a catalogue file beside its code. */
export type Catalogue = Record<string, Partial<Record<Language, string>>>;

export const catalogues: Record<string, Catalogue> = { core, accounts, wallet, trading, market, content };

const messages = new Map<string, Partial<Record<Language, string>>>();
for (const [name, catalogue] of Object.entries(catalogues)) {
  for (const [key, texts] of Object.entries(catalogue)) {
    if (messages.has(key)) throw new Error(`message key ${key} of catalogue ${name} is defined twice`);
    messages.set(key, texts);
  }
}

export const hasMessage = (key: string) => messages.has(key);

/** Text of `key` in `lang` with `{{name}}` placeholders filled; English, then the key, when missing. */
export function translate(lang: string, key: string, params: Record<string, string | number> = {}): string {
  const texts = messages.get(key);
  const language = resolveLanguage(lang);
  const template = texts?.[language] ?? texts?.en ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

export const allMessageKeys = () => [...messages.keys()];
export { LANGUAGES };
