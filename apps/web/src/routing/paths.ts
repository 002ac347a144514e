/** Route paths of the screens (docs/product.md, "Screens"). */
export const Paths = {
  home: '/',
  trade: '/trade',
  order: '/order',
  user: '/user',
  news: '/news',
  newsDetail: '/news/detail',
  rank: '/rank',
  /** The documentary (copy trading) tab: the providers one may copy. */
  copy: '/copy',
  copyProvider: '/copy/provider',
  /** The signed-in user's copies, each with its activity. */
  copyMine: '/copy/mine',
  /** The signed-in user's own provider page. */
  copyMyProvider: '/copy/me',
  login: '/login',
  register: '/register',
  forgot: '/forgot',
  product: '/product',
  language: '/language',
  auth: '/mine/auth',
  history: '/mine/history',
  charge: '/mine/charge',
  chargeRecords: '/mine/charge/records',
  withdraw: '/mine/withdraw',
  withdrawWay: '/mine/withdraw-way',
  withdrawRecords: '/mine/withdraw/records',
  wallet: '/mine/wallet',
  bankCardList: '/mine/bank-card-list',
  coinAddressList: '/mine/coin-address-list',
  invite: '/mine/invite',
  email: '/mine/email',
  announcement: '/mine/announcement',
  /** The signed-in user's account notices (the list under the bell). */
  accountNotices: '/mine/notices',
  password: '/mine/password',
  chat: '/mine/chat',
  system: '/mine/system',
  feedback: '/feedback',
} as const;

/** `/news/detail?id=7` (docs/api.md). */
export const newsDetailPath = (id: number) => `${Paths.newsDetail}?id=${id}`;

/** One announcement: `/mine/announcement?id=7` (the list is the same path without id). */
export const announcementPath = (id: number) => `${Paths.announcement}?id=${id}`;

/** A provider's profile: `/copy/provider?id=7`. */
export const providerPath = (id: number) => `${Paths.copyProvider}?id=${id}`;

/** `/mine/withdraw-way?type=1` (coin address) or `type=2` (bank account) (docs/api.md). */
export const withdrawWayPath = (type: number) => `${Paths.withdrawWay}?type=${type}`;

/** The deposit records, of one type (1 coin, 2 bank wire) or all. */
export const chargeRecordsPath = (type?: number) => (type ? `${Paths.chargeRecords}?type=${type}` : Paths.chargeRecords);

/** `/login?from=/trade`: the wanted path stays readable; its own query is encoded. */
export function loginPath(from: string) {
  return `${Paths.login}?from=${encodeURIComponent(from).replace(/%2F/gi, '/')}`;
}

/** Where to go after sign-in: only an in-app path, never another origin. */
export function safeReturnPath(from: string | null) {
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith(Paths.login) ? from : Paths.home;
}
