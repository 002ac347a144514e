// The package ships no types; this is the one function the payout methods use.
declare module 'multicoin-address-validator' {
  /** Whether `address` is a valid address of `currency` (a name or symbol, e.g. 'btc', 'eth', 'trx') on mainnet. */
  export function validate(address: string, currency: string, options?: { networkType?: 'prod' | 'testnet' | 'both' }): boolean;
  const validator: { validate: typeof validate };
  export default validator;
}
