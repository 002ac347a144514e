/** HTTP paths of the API, exactly as the client calls them (docs/api.md). */
export const ApiPath = {
  userInfo: '/api/user/info',
  login: '/api/user/loginForU',
  logout: '/api/user/logout',
  createDemo: '/api/user/createAccountDemoForU',
  register: '/api/user/register',
  amendPassword: '/api/user/amend_password',
  /** A code for amend_password, sent to the signed-in user's own email or phone (path ours; the spec names none). */
  passwordCode: '/api/user/password_code',
  /** The user's invite code and how many registered with it (path ours; the spec names none). */
  inviteInfo: '/api/user/invite_info',
  forgetPassword: '/api/user/forget_password',
  /** The signed-in user accepts the risk disclosure in force (path ours). */
  acceptRiskDisclosure: '/api/user/risk_disclosure',
  /** A real account's session of its own demo account, linked on first use (path ours). */
  switchToDemo: '/api/user/demo_switch',
  sendEmail: '/api/notify/send_email',
  sendSms: '/api/notify/send_sms',
  captcha: '/api/captcha',
  areaList: '/api/default/area_list',
  setting: '/api/default/setting',
  basicInfo: '/api/basicSet/getBasicInfo',
  tradeList: '/v1/api/forex/trade_list',
  categories: '/v1/api/forex/getCategories',
  kline: '/v1/api/forex/kline',
  abbreviatedKline: '/v1/api/forex/abbreviated_cache_kline',
  submitOrder: '/v1/api/forex/submit',
  myDeal: '/v1/api/forex/my_deal',
  closeOrder: '/v1/api/forex/close',
  cancelOrder: '/v1/api/forex/cancel_trade',
  setStopPrice: '/v1/api/forex/set_stop_price',
  getBalance: '/v1/api/main/wallet/getBalance',
  forexDetail: '/v1/api/main/account/forexDetail',
  ledger: '/v1/api/main/accountLog/forexChange',
  resetDemo: '/v1/api/main/user/resetForexDemoAccount',
  newsList: '/api/news/list',
  newsInfo: '/api/news/info',
  /** Announcements (docs/api.md announcement; paths ours, the spec names none). */
  noticeList: '/api/notice/list',
  noticeInfo: '/api/notice/info',
  noticeUnreadCount: '/api/notice/unread_count',
  /** The user's own notices: positions the engine closed, pending orders it filled or retired, margin calls (paths ours). */
  accountNoticeList: '/api/notice/account_list',
  accountNoticeUnread: '/api/notice/account_unread',
  /** Marks every account notice of the user read (opening the list under the bell). */
  accountNoticeRead: '/api/notice/account_read',
  /** Listed copy-trading providers with the leaderboard's fields and their figures (query: ZProviderListQuery). */
  followList: '/api/follow/list',
  /** The ranking tab's board of every real trader over three weeks, providers or not (path ours). */
  traderRanking: '/api/follow/ranking',
  // Copy trading (paths ours; docs/api.md, "Copy trading").
  copyProvider: '/api/follow/provider',
  copyPreview: '/api/follow/preview',
  copyFollow: '/api/follow/follow',
  copyEdit: '/api/follow/edit',
  copyPause: '/api/follow/pause',
  copyUnfollow: '/api/follow/unfollow',
  copyMine: '/api/follow/copies',
  copyActivity: '/api/follow/activity',
  providerMine: '/api/follow/provider/mine',
  providerBecome: '/api/follow/provider/become',
  providerUpdate: '/api/follow/provider/update',
  providerStop: '/api/follow/provider/stop',
  imageUpload: '/api/common/image_upload',
  /** Shows an upload to its owner through a signed, expiring link (`?expires=&sig=`); path ours (spec: url). */
  upload: '/api/common/upload/:id',
  chargeInfo: '/api/quickCharge/info',
  chargeSymbols: '/api/quickCharge/symbols',
  wireInfo: '/api/quickCharge/wire_info',
  chargeSubmit: '/api/quickCharge/submit',
  wireSubmit: '/api/quickCharge/wire_submit',
  depositList: '/api/quickCharge/quick_ist',
  drawSymbols: '/api/account/draw_symbol_list',
  draw: '/api/account/draw',
  drawList: '/api/account/draw_list',
  /** The user's cancel of an unreviewed withdrawal (path ours; the spec names none). */
  drawCancel: '/api/account/draw_cancel',
  /** What the withdraw screen states before anything is typed (path ours): whether real-name verification stands in the way. */
  drawRules: '/api/account/draw_rules',
  getDrawMethod: '/api/wallet/get_draw_method',
  bindDrawMethod: '/api/wallet/bind_draw_method',
  delDrawMethod: '/api/wallet/del_draw_method',
  realName: '/api/user_real/real_name',
  realNameCenter: '/api/user_real/center',
  /** Feedback from the /feedback screen (path ours; the spec's screen is a stub). */
  feedbackSubmit: '/api/feedback/submit',
} as const;

export const SOCKET_PATH = '/v1/ws';

/** Server → client socket message types (docs/architecture.md, "Socket"). */
export const SocketTopic = {
  dayMarket: 'DAY_MARKET',
  forexTrade: 'FOREX_TRADE',
  forexClosed: 'FOREX_CLOSED',
  /** Ids of pending orders that filled (they moved from the pending list to the holding list). */
  forexFilled: 'FOREX_FILLED',
  /** A deposit or withdrawal of the user's changed status (and with it the balance or the locked money). */
  wallet: 'WALLET',
  /** An account notice (`AccountNoticeView`): the engine closed, filled or retired an order, or a margin call. */
  notice: 'NOTICE',
  /** A line of one of the user's copies' activity (`CopyActivityView`): copied, skipped, closed, stopped, fee. */
  copy: 'COPY',
  klinePrefix: 'KLINE.',
} as const;

export const klineTopic = (code: string) => `${SocketTopic.klinePrefix}${code}`;

/** Socket timings shared by client and server (docs/api.md). */
export const HEARTBEAT_INTERVAL_MS = 5_000;
export const SOCKET_CONNECT_TIMEOUT_MS = 5_000;
export const MAX_MISSED_PONGS = 2;

/** Verification code rules (docs/api.md). */
export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_SECONDS = 600;
export const CODE_MAX_ATTEMPTS = 5;

export const CodePurpose = { register: 1, reset: 2 } as const;
export type CodePurposeValue = (typeof CodePurpose)[keyof typeof CodePurpose];
