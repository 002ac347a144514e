import { startTransition, useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import {
  Navigate,
  Router,
  UNSAFE_createHashHistory,
  useRoutes,
  type Navigator,
  type NavigateOptions,
  type RouteObject,
} from 'react-router';
import { Paths } from '../routing/paths';
import { lazyScreen } from './antdRender';
import { RealAccountOnly } from './RealAccountOnly';
import { SignedInOnly } from './SignedInOnly';
import { Shell } from './Shell';
import { TABS } from './tabs';

const LoginPage = lazyScreen(() => import('../features/auth/LoginPage'));
const RegisterPage = lazyScreen(() => import('../features/auth/RegisterPage'));
const ForgotPage = lazyScreen(() => import('../features/auth/ForgotPage'));
const ProductPage = lazyScreen(() => import('../features/product/ProductPage'));
const LanguagePage = lazyScreen(() => import('../features/language/LanguagePage'));
const NewsDetailPage = lazyScreen(() => import('../features/news/NewsDetailPage'));
const IdentityPage = lazyScreen(() => import('../features/identity/IdentityPage'));
const ChargePage = lazyScreen(() => import('../features/charge/ChargePage'));
const DepositRecordsPage = lazyScreen(() => import('../features/charge/DepositRecordsPage'));
const WithdrawPage = lazyScreen(() => import('../features/withdraw/WithdrawPage'));
const WithdrawWayPage = lazyScreen(() => import('../features/withdraw/WithdrawWayPage'));
const WithdrawRecordsPage = lazyScreen(() => import('../features/withdraw/WithdrawRecordsPage'));
const CoinAddressListPage = lazyScreen(() =>
  import('../features/withdraw/MethodListPage').then((module) => ({ default: module.CoinAddressListPage })),
);
const BankCardListPage = lazyScreen(() =>
  import('../features/withdraw/MethodListPage').then((module) => ({ default: module.BankCardListPage })),
);
const WalletPage = lazyScreen(() => import('../features/wallet/WalletPage'));
const HistoryPage = lazyScreen(() => import('../features/history/HistoryPage'));
const SystemPage = lazyScreen(() => import('../features/system/SystemPage'));
const ChatPage = lazyScreen(() => import('../features/chat/ChatPage'));
const AccountNoticesPage = lazyScreen(() => import('../features/notices/AccountNoticesPage'));
const FeedbackPage = lazyScreen(() => import('../features/feedback/FeedbackPage'));
const InvitePage = lazyScreen(() => import('../features/invite/InvitePage'));
const PasswordPage = lazyScreen(() => import('../features/password/PasswordPage'));
const ComplaintEmailPage = lazyScreen(() => import('../features/complaint/ComplaintEmailPage'));
const AnnouncementPage = lazyScreen(() => import('../features/notices/AnnouncementPage'));
const ProviderPage = lazyScreen(() => import('../features/copy/ProviderPage'));
const MyCopiesPage = lazyScreen(() => import('../features/copy/MyCopiesPage'));
const MyProviderPage = lazyScreen(() => import('../features/copy/MyProviderPage'));

/** Hash routes (docs/product.md, "Screens"). Tab screens are drawn by the shell itself so they stay alive. */
const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      ...TABS.map((tab) => ({ path: tab.path, element: null })),
      { path: Paths.login, element: <LoginPage /> },
      { path: Paths.register, element: <RegisterPage /> },
      { path: Paths.forgot, element: <ForgotPage /> },
      { path: Paths.product, element: <ProductPage /> },
      { path: Paths.language, element: <LanguagePage /> },
      { path: Paths.newsDetail, element: <NewsDetailPage /> },
      { path: Paths.feedback, element: <FeedbackPage /> },
      { path: Paths.copyProvider, element: <ProviderPage /> },
      {
        // Screens that move money or identity: a real account's only (docs/product.md).
        element: <RealAccountOnly />,
        children: [
          { path: Paths.auth, element: <IdentityPage /> },
          { path: Paths.charge, element: <ChargePage /> },
          { path: Paths.chargeRecords, element: <DepositRecordsPage /> },
          { path: Paths.withdraw, element: <WithdrawPage /> },
          { path: Paths.withdrawWay, element: <WithdrawWayPage /> },
          { path: Paths.withdrawRecords, element: <WithdrawRecordsPage /> },
          { path: Paths.coinAddressList, element: <CoinAddressListPage /> },
          { path: Paths.bankCardList, element: <BankCardListPage /> },
          { path: Paths.wallet, element: <WalletPage /> },
          { path: Paths.invite, element: <InvitePage /> },
          { path: Paths.password, element: <PasswordPage /> },
        ],
      },
      {
        // Signed-in screens a demo account may open too: its ledger explains its demo balance.
        element: <SignedInOnly />,
        children: [
          { path: Paths.history, element: <HistoryPage /> },
          { path: Paths.system, element: <SystemPage /> },
          { path: Paths.chat, element: <ChatPage /> },
          { path: Paths.email, element: <ComplaintEmailPage /> },
          { path: Paths.announcement, element: <AnnouncementPage /> },
          { path: Paths.accountNotices, element: <AccountNoticesPage /> },
          // Copying is open to demo accounts: anyone may try it on demo money first.
          { path: Paths.copyMine, element: <MyCopiesPage /> },
          { path: Paths.copyMyProvider, element: <MyProviderPage /> },
        ],
      },
      { path: '/mine', element: <Navigate to={Paths.user} replace /> },
      { path: '*', element: <Navigate to={Paths.home} replace /> },
    ],
  },
];

/**
 * The hash history createHashRouter would build, without the data router around it: the app has no loaders,
 * actions or fetchers, and that machinery was about 16 KB (gzip) of the first screen's download (docs/benchmarks.md).
 * Code outside React navigates with it too.
 */
export const appHistory = UNSAFE_createHashHistory({ v5Compat: true });

/** Set while a navigation asked to be drawn at once (`flushSync`), as the data router's navigate allowed. */
let drawAtOnce = false;

function move(options: NavigateOptions | undefined, go: () => void) {
  drawAtOnce = options?.flushSync === true;
  try {
    go();
  } finally {
    drawAtOnce = false;
  }
}

const navigator: Navigator = {
  createHref: (to) => appHistory.createHref(to),
  createURL: (to) => appHistory.createURL(to),
  encodeLocation: (to) => appHistory.encodeLocation(to),
  go: (delta) => appHistory.go(delta),
  push: (to, state, options) => move(options, () => appHistory.push(to, state)),
  replace: (to, state, options) => move(options, () => appHistory.replace(to, state)),
};

function AppRoutes() {
  return useRoutes(routes);
}

/** Navigations render in a transition, as under the data router, unless one asked to be drawn at once. */
export function AppRouter() {
  const [{ action, location }, setState] = useState({ action: appHistory.action, location: appHistory.location });
  useLayoutEffect(
    () =>
      appHistory.listen((update) => {
        if (drawAtOnce) flushSync(() => setState(update));
        else startTransition(() => setState(update));
      }),
    [],
  );
  return (
    <Router location={location} navigationType={action} navigator={navigator}>
      <AppRoutes />
    </Router>
  );
}
