/**
 * Payload shapes the web app reads (docs/api.md). They are the domain's views, the same types the
 * server's presenters return, so the app cannot expect a field the server does not send. Aliased to
 * the names the app's code uses.
 */
export type {
  AccountFiguresView as AccountFigures,
  AccountNoticeListView as AccountNoticePage,
  AccountNoticeView as AccountNotice,
  AreaView as AreaCode,
  BalanceView as Balance,
  BasicInfoView as BasicInfo,
  CaptchaView as Captcha,
  CategoryView as Category,
  DayMarketView as DayMarketTick,
  Envelope,
  ForexQuotationView as ForexQuotation,
  KlinePointView as KlinePoint,
  KlineUpdateView as KlinePush,
  LedgerEntryView as LedgerEntry,
  LedgerPageView as LedgerPage,
  LeaderboardEntryView as LeaderboardEntry,
  NewsDetailView as NewsDetail,
  NewsListView as NewsPage,
  OrderPageView as OrderPage,
  OrderView as Order,
  SessionView as LoginResult,
  SparklineView as Sparkline,
  TradePairView as TradePair,
  TradePushView as ForexTradePush,
  UserView,
} from '@pipwise/domain';
