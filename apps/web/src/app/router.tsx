import { lazy } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import { Paths } from '../routing/paths';
import { RealAccountOnly } from './RealAccountOnly';
import { SignedInOnly } from './SignedInOnly';
import { Shell } from './Shell';
import { TABS } from './tabs';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage'));
const ForgotPage = lazy(() => import('../features/auth/ForgotPage'));
const ProductPage = lazy(() => import('../features/product/ProductPage'));
const LanguagePage = lazy(() => import('../features/language/LanguagePage'));
const NewsDetailPage = lazy(() => import('../features/news/NewsDetailPage'));
const IdentityPage = lazy(() => import('../features/identity/IdentityPage'));
const ChargePage = lazy(() => import('../features/charge/ChargePage'));
const DepositRecordsPage = lazy(() => import('../features/charge/DepositRecordsPage'));
const WithdrawPage = lazy(() => import('../features/withdraw/WithdrawPage'));
const WithdrawWayPage = lazy(() => import('../features/withdraw/WithdrawWayPage'));
const WithdrawRecordsPage = lazy(() => import('../features/withdraw/WithdrawRecordsPage'));
const CoinAddressListPage = lazy(() =>
  import('../features/withdraw/MethodListPage').then((module) => ({ default: module.CoinAddressListPage })),
);
const BankCardListPage = lazy(() =>
  import('../features/withdraw/MethodListPage').then((module) => ({ default: module.BankCardListPage })),
);
const WalletPage = lazy(() => import('../features/wallet/WalletPage'));
const HistoryPage = lazy(() => import('../features/history/HistoryPage'));
const SystemPage = lazy(() => import('../features/system/SystemPage'));
const ChatPage = lazy(() => import('../features/chat/ChatPage'));
const FeedbackPage = lazy(() => import('../features/feedback/FeedbackPage'));
const InvitePage = lazy(() => import('../features/invite/InvitePage'));
const PasswordPage = lazy(() => import('../features/password/PasswordPage'));
const ComplaintEmailPage = lazy(() => import('../features/complaint/ComplaintEmailPage'));
const AnnouncementPage = lazy(() => import('../features/notices/AnnouncementPage'));

/** Hash routes (docs/product.md, "Screens"). Tab screens are drawn by the shell itself so they stay alive. */
export const router = createHashRouter([
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
        ],
      },
      { path: '/mine', element: <Navigate to={Paths.user} replace /> },
      { path: '*', element: <Navigate to={Paths.home} replace /> },
    ],
  },
]);
