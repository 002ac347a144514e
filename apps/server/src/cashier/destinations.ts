import { invalid } from '@pipwise/domain';
import { countrySpecs, electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import addressValidator from 'multicoin-address-validator';

/**
 * The validator's currency for each withdraw protocol; a protocol not here cannot take a coin address.
 * A Map, since the protocol is text: an object would answer `constructor` with a function.
 */
const VALIDATOR_CURRENCY = new Map([
  ['TRC20', 'trx'],
  ['ERC20', 'eth'],
  ['BTC', 'btc'],
]);

/** A coin address that passed its protocol's check, and the form two spellings of one address share. */
export interface CoinAddress {
  address: string;
  /** Ethereum addresses (the checksum is only letter case) and bech32 ones are the same in any case. */
  sameAs: string;
}

/** A coin address for `protocol`, checked by its encoding and checksum (mainnet only). */
export function coinAddress(protocol: string, address: string): CoinAddress {
  const currency = VALIDATOR_CURRENCY.get(protocol);
  if (!currency || !addressValidator.validate(address, currency, { networkType: 'prod' })) {
    throw invalid('address_invalid', { protocol: protocol || '?', field: 'dc_address' });
  }
  // Bech32 is kept in its canonical lower case; an Ethereum address keeps its checksum casing for display.
  if (protocol === 'BTC' && /^bc1/i.test(address)) return { address: address.toLowerCase(), sameAs: address.toLowerCase() };
  return { address, sameAs: protocol === 'ERC20' ? address.toLowerCase() : address };
}

export interface BankAccount {
  /** IBANs in electronic form; other account numbers upper-cased without spaces or hyphens. */
  payeeAccount: string;
  bankSwift: string | undefined;
}

/** Two letters of a country that has IBANs, two check digits: what an IBAN starts with. */
const looksLikeIban = (account: string) => {
  const country = /^([A-Z]{2})\d{2}/.exec(account)?.[1];
  return country !== undefined && countrySpecs[country]?.chars !== undefined;
};

/**
 * A bank account: an IBAN must pass its country's length, format and check digits; elsewhere (the US,
 * most of Asia) a plain account number of letters and digits is accepted. A BIC/SWIFT, when given, must
 * be well formed with a real country code.
 */
export function bankAccount(payeeAccount: string, bankSwift: string | undefined): BankAccount {
  const compact = payeeAccount.replace(/[\s-]/g, '').toUpperCase();
  if (looksLikeIban(compact)) {
    const iban = electronicFormatIBAN(compact) ?? compact;
    if (!isValidIBAN(iban)) throw invalid('iban_invalid', { field: 'payee_account' });
    return { payeeAccount: iban, bankSwift: swift(bankSwift) };
  }
  if (!/^[A-Z0-9]{4,34}$/.test(compact) || !/\d/.test(compact))
    throw invalid('account_number_invalid', { field: 'payee_account' });
  return { payeeAccount: compact, bankSwift: swift(bankSwift) };
}

function swift(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const code = value.replace(/\s/g, '').toUpperCase();
  if (!isValidBIC(code)) throw invalid('swift_invalid', { field: 'bank_swift' });
  return code;
}
