import type { CoinChannelView } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { coinChoices } from './choices';

const channel = (id: number, currency_code: string, protocol_code: string): CoinChannelView => ({
  id,
  currency_code,
  protocol_code,
  address: `address-${id}`,
  min_amount: 10,
  max_amount: 1000,
});

describe('coin deposit choices', () => {
  const channels = [channel(1, 'BTC', 'BTC'), channel(2, 'USDT', 'ERC20'), channel(3, 'USDT', 'TRC20'), channel(4, 'XRP', 'XRP')];
  const symbols = [
    { currency_code: 'USDT', protocols: ['TRC20', 'ERC20', 'BEP20'] },
    { currency_code: 'BTC', protocols: ['BTC'] },
  ];

  it('lists the currencies that have an address, in the order symbols gives, unknown ones last', () => {
    expect(coinChoices(channels, symbols).currencies).toEqual(['USDT', 'BTC', 'XRP']);
  });

  it('offers only the protocols with an address, in the order symbols gives', () => {
    const { protocolsOf } = coinChoices(channels, symbols);
    expect(protocolsOf('USDT')).toEqual(['TRC20', 'ERC20']);
    expect(protocolsOf('XRP')).toEqual(['XRP']);
  });

  it('works from the channels alone when symbols are not loaded', () => {
    const { currencies, protocolsOf } = coinChoices(channels);
    expect(currencies).toEqual(['BTC', 'USDT', 'XRP']);
    expect(protocolsOf('USDT')).toEqual(['ERC20', 'TRC20']);
  });
});
