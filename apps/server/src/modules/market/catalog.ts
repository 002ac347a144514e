import type { Language, MarketSession } from '@pipwise/domain';

/**
 * Reference data seeded on first start. Prices are plausible late-2026 levels; spreads are typical
 * retail-broker spreads; volatility is annualised (the simulated feed scales it to each step).
 */
export interface CategorySeed {
  slug: 'forex' | 'metals' | 'energy' | 'indices' | 'crypto';
  sort: number;
  names: Record<Language, string>;
}

export const CATEGORY_SEEDS: CategorySeed[] = [
  {
    slug: 'forex',
    sort: 1,
    names: {
      hk: '外匯',
      en: 'Forex',
      jp: '外国為替',
      kr: '외환',
      th: 'ฟอเร็กซ์',
      vn: 'Ngoại hối',
      fr: 'Devises',
      de: 'Devisen',
      ru: 'Валюты',
      spa: 'Divisas',
      pt: 'Câmbio',
      ar: 'العملات',
      it: 'Valute',
      tr: 'Döviz',
      id: 'Valas',
      my: 'နိုင်ငံခြားငွေ',
      hi: 'विदेशी मुद्रा',
      cs: 'Měny',
    },
  },
  {
    slug: 'metals',
    sort: 2,
    names: {
      hk: '貴金屬',
      en: 'Metals',
      jp: '貴金属',
      kr: '귀금속',
      th: 'โลหะมีค่า',
      vn: 'Kim loại quý',
      fr: 'Métaux',
      de: 'Edelmetalle',
      ru: 'Металлы',
      spa: 'Metales',
      pt: 'Metais',
      ar: 'المعادن',
      it: 'Metalli',
      tr: 'Değerli metaller',
      id: 'Logam mulia',
      my: 'အဖိုးတန်သတ္တု',
      hi: 'धातुएँ',
      cs: 'Drahé kovy',
    },
  },
  {
    slug: 'energy',
    sort: 3,
    names: {
      hk: '能源',
      en: 'Energy',
      jp: 'エネルギー',
      kr: '에너지',
      th: 'พลังงาน',
      vn: 'Năng lượng',
      fr: 'Énergie',
      de: 'Energie',
      ru: 'Энергоносители',
      spa: 'Energía',
      pt: 'Energia',
      ar: 'الطاقة',
      it: 'Energia',
      tr: 'Enerji',
      id: 'Energi',
      my: 'စွမ်းအင်',
      hi: 'ऊर्जा',
      cs: 'Energie',
    },
  },
  {
    slug: 'indices',
    sort: 4,
    names: {
      hk: '指數',
      en: 'Indices',
      jp: '株価指数',
      kr: '지수',
      th: 'ดัชนี',
      vn: 'Chỉ số',
      fr: 'Indices',
      de: 'Indizes',
      ru: 'Индексы',
      spa: 'Índices',
      pt: 'Índices',
      ar: 'المؤشرات',
      it: 'Indici',
      tr: 'Endeksler',
      id: 'Indeks',
      my: 'အညွှန်းကိန်းများ',
      hi: 'सूचकांक',
      cs: 'Indexy',
    },
  },
  {
    slug: 'crypto',
    sort: 5,
    names: {
      hk: '加密貨幣',
      en: 'Crypto',
      jp: '暗号資産',
      kr: '암호화폐',
      th: 'คริปโต',
      vn: 'Tiền mã hóa',
      fr: 'Cryptomonnaies',
      de: 'Kryptowährungen',
      ru: 'Криптовалюты',
      spa: 'Criptomonedas',
      pt: 'Criptomoedas',
      ar: 'العملات المشفرة',
      it: 'Criptovalute',
      tr: 'Kripto paralar',
      id: 'Kripto',
      my: 'ခရစ်ပ်တိုငွေ',
      hi: 'क्रिप्टोकरेंसी',
      cs: 'Kryptoměny',
    },
  },
];

export interface InstrumentSeed {
  code: string;
  name: string;
  category: CategorySeed['slug'];
  logo: string;
  base: string;
  quote: string;
  precision: number;
  lotStep: string;
  minLots: string;
  maxLots: string;
  contractSize: string;
  feeRate: string;
  /** 1: margin = lots × contract size (fixed per lot); 2: notional ÷ leverage. */
  marginMode: 1 | 2;
  leverages: number[];
  spread: string;
  basePrice: string;
  /** Annualised volatility of the simulated price (0.08 = 8 %). */
  volatility: string;
  session: MarketSession;
}

const FOREX_LEVERAGE = [10, 20, 50, 100, 200, 500];
const METAL_LEVERAGE = [10, 20, 50, 100, 200];
const ENERGY_LEVERAGE = [10, 20, 50, 100];
const INDEX_LEVERAGE = [5, 10, 20, 50, 100];
const CRYPTO_LEVERAGE = [2, 5, 10, 20];

function forex(
  code: string,
  name: string,
  precision: number,
  spread: string,
  basePrice: string,
  volatility: string,
): InstrumentSeed {
  return {
    code,
    name,
    category: 'forex',
    logo: `/logos/${code.slice(0, 3).toLowerCase()}.svg`,
    base: code.slice(0, 3),
    quote: code.slice(3),
    precision,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '50',
    contractSize: '100000',
    feeRate: '0.005',
    marginMode: 2,
    leverages: FOREX_LEVERAGE,
    spread,
    basePrice,
    volatility,
    session: 'forex',
  };
}

function index(
  code: string,
  name: string,
  quote: string,
  precision: number,
  spread: string,
  basePrice: string,
  volatility: string,
  session: MarketSession,
): InstrumentSeed {
  return {
    code,
    name,
    category: 'indices',
    logo: '/logos/index.svg',
    base: code,
    quote,
    precision,
    lotStep: '0.1',
    minLots: '0.1',
    maxLots: '100',
    contractSize: '1',
    feeRate: '0.005',
    marginMode: 2,
    leverages: INDEX_LEVERAGE,
    spread,
    basePrice,
    volatility,
    session,
  };
}

function crypto(
  code: string,
  name: string,
  precision: number,
  spread: string,
  basePrice: string,
  volatility: string,
  contractSize = '1',
): InstrumentSeed {
  return {
    code,
    name,
    category: 'crypto',
    logo: `/logos/${code.slice(0, -3).toLowerCase()}.svg`,
    base: code.slice(0, -3),
    quote: 'USD',
    precision,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '20',
    contractSize,
    feeRate: '0.01',
    marginMode: 2,
    leverages: CRYPTO_LEVERAGE,
    spread,
    basePrice,
    volatility,
    session: 'crypto',
  };
}

/**
 * Oil uses fixed margin (MarginMode 1): its margin per lot is lots × contract size (docs/api.md), and with
 * 1,000 barrels a lot at about 60 USD that is roughly 1:60 — the only kind of instrument where the
 * spec's fixed-margin formula gives a sensible figure, because margin and P&L share the contract size.
 */
export const INSTRUMENT_SEEDS: InstrumentSeed[] = [
  forex('EURUSD', 'Euro / US Dollar', 5, '0.00008', '1.16200', '0.075'),
  forex('GBPUSD', 'British Pound / US Dollar', 5, '0.00012', '1.31500', '0.085'),
  forex('USDJPY', 'US Dollar / Japanese Yen', 3, '0.010', '154.500', '0.100'),
  forex('AUDUSD', 'Australian Dollar / US Dollar', 5, '0.00010', '0.65200', '0.095'),
  forex('USDCAD', 'US Dollar / Canadian Dollar', 5, '0.00014', '1.40500', '0.065'),
  forex('USDCHF', 'US Dollar / Swiss Franc', 5, '0.00013', '0.79800', '0.080'),
  forex('NZDUSD', 'New Zealand Dollar / US Dollar', 5, '0.00015', '0.56800', '0.100'),
  forex('EURGBP', 'Euro / British Pound', 5, '0.00012', '0.88300', '0.060'),
  forex('EURJPY', 'Euro / Japanese Yen', 3, '0.016', '179.500', '0.100'),
  forex('GBPJPY', 'British Pound / Japanese Yen', 3, '0.025', '203.200', '0.115'),
  forex('EURCHF', 'Euro / Swiss Franc', 5, '0.00016', '0.92800', '0.060'),
  forex('AUDJPY', 'Australian Dollar / Japanese Yen', 3, '0.016', '100.700', '0.120'),
  forex('EURAUD', 'Euro / Australian Dollar', 5, '0.00020', '1.78200', '0.085'),
  forex('GBPCHF', 'British Pound / Swiss Franc', 5, '0.00025', '1.04900', '0.085'),
  forex('CADJPY', 'Canadian Dollar / Japanese Yen', 3, '0.020', '109.900', '0.105'),
  {
    code: 'XAUUSD',
    name: 'Gold / US Dollar',
    category: 'metals',
    logo: '/logos/xau.svg',
    base: 'XAU',
    quote: 'USD',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '50',
    contractSize: '100',
    feeRate: '0.005',
    marginMode: 2,
    leverages: METAL_LEVERAGE,
    spread: '0.25',
    basePrice: '4080.00',
    volatility: '0.160',
    session: 'cfd',
  },
  {
    code: 'XAGUSD',
    name: 'Silver / US Dollar',
    category: 'metals',
    logo: '/logos/xag.svg',
    base: 'XAG',
    quote: 'USD',
    precision: 3,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '50',
    contractSize: '5000',
    feeRate: '0.005',
    marginMode: 2,
    leverages: METAL_LEVERAGE,
    spread: '0.025',
    basePrice: '50.450',
    volatility: '0.280',
    session: 'cfd',
  },
  {
    code: 'USOIL',
    name: 'WTI Crude Oil',
    category: 'energy',
    logo: '/logos/oil.svg',
    base: 'WTI',
    quote: 'USD',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '50',
    contractSize: '1000',
    feeRate: '0.005',
    marginMode: 1,
    leverages: ENERGY_LEVERAGE,
    spread: '0.03',
    basePrice: '59.80',
    volatility: '0.320',
    session: 'cfd',
  },
  {
    code: 'UKOIL',
    name: 'Brent Crude Oil',
    category: 'energy',
    logo: '/logos/oil.svg',
    base: 'BRENT',
    quote: 'USD',
    precision: 2,
    lotStep: '0.01',
    minLots: '0.01',
    maxLots: '50',
    contractSize: '1000',
    feeRate: '0.005',
    marginMode: 1,
    leverages: ENERGY_LEVERAGE,
    spread: '0.03',
    basePrice: '63.70',
    volatility: '0.300',
    session: 'cfd',
  },
  index('US30', 'Dow Jones 30', 'USD', 1, '2.0', '46800.0', '0.160', 'cfd'),
  index('NAS100', 'Nasdaq 100', 'USD', 1, '1.5', '25100.0', '0.220', 'cfd'),
  index('SPX500', 'S&P 500', 'USD', 1, '0.5', '6750.0', '0.170', 'cfd'),
  index('GER40', 'Germany 40', 'EUR', 1, '1.2', '23900.0', '0.180', 'europe'),
  index('UK100', 'UK 100', 'GBP', 1, '1.0', '9650.0', '0.150', 'europe'),
  index('JPN225', 'Japan 225', 'JPY', 0, '8', '49500', '0.220', 'cfd'),
  crypto('BTCUSD', 'Bitcoin / US Dollar', 2, '25.00', '96500.00', '0.550'),
  crypto('ETHUSD', 'Ethereum / US Dollar', 2, '1.80', '3150.00', '0.700'),
  crypto('SOLUSD', 'Solana / US Dollar', 2, '0.12', '142.50', '0.850', '10'),
  crypto('XRPUSD', 'XRP / US Dollar', 4, '0.0020', '2.2500', '0.800', '1000'),
  crypto('LTCUSD', 'Litecoin / US Dollar', 2, '0.10', '95.00', '0.750', '10'),
  crypto('BNBUSD', 'BNB / US Dollar', 2, '0.60', '920.00', '0.600'),
  crypto('DOGEUSD', 'Dogecoin / US Dollar', 5, '0.00030', '0.16000', '0.900', '10000'),
];
