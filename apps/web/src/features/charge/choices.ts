import type { CoinChannelView, DepositSymbolView } from '@pipwise/domain';

/**
 * The currencies and, per currency, the protocols a deposit can be made by: those with a receiving
 * address, in the order `symbols` lists them (currencies it does not know come last).
 */
export function coinChoices(channels: CoinChannelView[], symbols: DepositSymbolView[] = []) {
  const order = (currency: string) => {
    const index = symbols.findIndex((symbol) => symbol.currency_code === currency);
    return index === -1 ? symbols.length : index;
  };
  const currencies = [...new Set(channels.map((channel) => channel.currency_code))].sort((a, b) => order(a) - order(b));
  const protocolsOf = (currency: string) => {
    const listed = symbols.find((symbol) => symbol.currency_code === currency)?.protocols ?? [];
    const offered = channels.filter((channel) => channel.currency_code === currency).map((channel) => channel.protocol_code);
    return [
      ...listed.filter((protocol) => offered.includes(protocol)),
      ...offered.filter((protocol) => !listed.includes(protocol)),
    ];
  };
  return { currencies, protocolsOf };
}
