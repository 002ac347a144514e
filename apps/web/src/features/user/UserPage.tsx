import { RealNameStatus, type RealNameView } from '@pipwise/domain';
import { Badge, Dialog, List, Tag, Toast, type TagProps } from 'antd-mobile';
import {
  ArrowDownCircleOutline,
  BillOutline,
  CollectMoneyOutline,
  EditSOutline,
  EyeInvisibleOutline,
  EyeOutline,
  GlobalOutline,
  LockOutline,
  LoopOutline,
  MailOutline,
  MessageOutline,
  SetOutline,
  SoundOutline,
  TeamOutline,
  UpCircleOutline,
  UserContactOutline,
  UserOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useBalanceQuery } from '../../api/queries/account';
import { LazyAccountMode } from '../../components/LazyAccountMode';
import { useResetDemoMutation } from '../../api/queries/resetDemo';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { useRealNameQuery } from '../../api/queries/identity';
import { useUnreadNoticesQuery } from '../../api/queries/notices';
import { loginPath, Paths } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { formatMoney } from '../../i18n/format';
import { useViewPrefs } from '../../stores/prefs';
import { useSession } from '../../stores/session';
import { CopyText } from '../../components/CopyText';
import { useLogout } from '../../components/useLogout';
import './user.css';

/** The money shortcuts under the card (docs/api.md); the account history is open to demo accounts too. */
const SHORTCUTS: readonly { path: string; labelKey: string; icon: ReactNode }[] = [
  { path: Paths.charge, labelKey: 'user.deposit', icon: <ArrowDownCircleOutline /> },
  { path: Paths.withdraw, labelKey: 'user.withdraw', icon: <UpCircleOutline /> },
  { path: Paths.wallet, labelKey: 'user.wallet', icon: <CollectMoneyOutline /> },
  { path: Paths.history, labelKey: 'user.history', icon: <BillOutline /> },
];

/** Screens a demo account may not open (docs/api.md): money, identity, invite and password. */
const BLOCKED_FOR_DEMO: ReadonlySet<string> = new Set([
  Paths.charge,
  Paths.withdraw,
  Paths.wallet,
  Paths.auth,
  Paths.invite,
  Paths.password,
]);

/** How the customer-service link opens (docs/api.md service_link_type); any other value is the in-app chat. */
const ServiceLinkType = { copyDialog: 2, external: 3 } as const;

/** Only web links leave the app: a settings typo such as `javascript:` must never run. */
function webLink(link: string | undefined): string | null {
  try {
    const url = new URL(link?.trim() ?? '');
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The real-name tile's badge: review_status 0 (never sent, or sent back with a reason), 1, 2 (docs/api.md). */
function realNameBadge(view: RealNameView | undefined): { labelKey: string; color: TagProps['color'] } | null {
  if (!view) return null;
  if (view.review_status === RealNameStatus.verified) return { labelKey: 'user.real_name_verified', color: 'success' };
  if (view.review_status === RealNameStatus.underReview) return { labelKey: 'user.real_name_reviewing', color: 'primary' };
  return view.reason
    ? { labelKey: 'user.real_name_rejected', color: 'danger' }
    : { labelKey: 'user.real_name_unverified', color: 'default' };
}

export default function UserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  const balance = useBalanceQuery();
  const { balanceVisible, toggleBalance } = useViewPrefs();
  const resetDemo = useResetDemoMutation();
  const demo = user?.is_demo === 1;
  // Demo accounts have no verification to show: the server refuses them the call.
  const realName = useRealNameQuery(Boolean(user) && !demo);
  const badge = realNameBadge(realName.data);
  const basicInfo = useBasicInfoQuery();
  const unread = useUnreadNoticesQuery();

  /**
   * A demo account hears at once that money and identity need a real account (docs/api.md), with the ways to
   * one; signing in to a real account then opens the screen it wanted.
   */
  const open = (path: string) => {
    if (!demo || !BLOCKED_FOR_DEMO.has(path)) {
      void navigate(path);
      return;
    }
    const handler = Dialog.show({
      title: t('common.demo_blocked_title'),
      content: t('common.demo_blocked'),
      closeOnMaskClick: true,
      actions: [
        [
          { key: 'cancel', text: t('common.cancel'), onClick: () => handler.close() },
          {
            key: 'register',
            text: t('auth.register'),
            bold: true,
            onClick: () => {
              handler.close();
              void navigate(Paths.register);
            },
          },
        ],
        {
          key: 'login',
          text: t('user.login_real'),
          onClick: () => {
            handler.close();
            void navigate(loginPath(path));
          },
        },
      ],
    });
  };

  /** Customer service by service_link_type (docs/api.md): 2 a dialog to copy the link, 3 the link outside, else /mine/chat. */
  const openService = () => {
    const type = basicInfo.data?.service_link_type;
    const link = basicInfo.data?.service_link.trim() ?? '';
    if (type === ServiceLinkType.copyDialog) {
      void Dialog.alert({
        title: t('user.customer_service'),
        content: link ? <CopyText label={t('user.service_link')} value={link} mono /> : t('user.service_unavailable'),
        confirmText: t('common.close'),
        closeOnMaskClick: true,
      });
      return;
    }
    if (type === ServiceLinkType.external) {
      const url = webLink(link);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
      else Toast.show({ content: t('user.service_unavailable') });
      return;
    }
    void navigate(Paths.chat);
  };

  const confirmReset = () =>
    void Dialog.confirm({
      content: t('user.reset_demo_confirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onConfirm: async () => {
        await resetDemo.mutateAsync();
        Toast.show({ icon: 'success', content: t('user.reset_demo_done') });
      },
    });

  const confirmLogout = useLogout();

  return (
    <Screen withTabBar>
      <section className="user-card" aria-label={t('user.account_card')}>
        <div className="user-avatar" aria-hidden="true">
          <UserOutline />
        </div>
        <div className="user-identity">
          {demo ? (
            <p className="user-name">{t('user.demo_account')}</p>
          ) : (
            <p className="user-name" translate="no" dir="ltr">
              {user?.email || user?.mobile || '--'}
            </p>
          )}
          <p className="user-uid">{t('user.uid', { uid: user?.uid ?? '--' })}</p>
          <LazyAccountMode />
        </div>
        <div className="user-balance">
          <span className="label">{t('user.balance')}</span>
          <span className="num balance-value" data-testid="user-balance">
            {balanceVisible ? formatMoney(balance.data?.balance) : '••••••'}
          </span>
          <button
            type="button"
            className="icon-button"
            onClick={toggleBalance}
            aria-label={t(balanceVisible ? 'user.hide_balance' : 'user.show_balance')}
            aria-pressed={balanceVisible}
          >
            {balanceVisible ? <EyeOutline /> : <EyeInvisibleOutline />}
          </button>
        </div>
      </section>

      <nav className="user-shortcuts" aria-label={t('user.shortcuts')}>
        {SHORTCUTS.map((shortcut) => (
          <button key={shortcut.path} type="button" className="user-shortcut" onClick={() => open(shortcut.path)}>
            <span className="user-shortcut-icon" aria-hidden="true">
              {shortcut.icon}
            </span>
            <span>{t(shortcut.labelKey)}</span>
          </button>
        ))}
      </nav>

      <List className="user-tiles">
        <List.Item
          prefix={<UserContactOutline />}
          extra={
            badge && (
              <Tag color={badge.color} fill="outline" data-testid="real-name-status">
                {t(badge.labelKey)}
              </Tag>
            )
          }
          onClick={() => open(Paths.auth)}
        >
          {t('user.real_name')}
        </List.Item>
        {demo && (
          <List.Item prefix={<LoopOutline />} onClick={confirmReset}>
            {t('user.reset_demo')}
          </List.Item>
        )}
        <List.Item prefix={<TeamOutline />} onClick={() => open(Paths.invite)}>
          {t('user.invite')}
        </List.Item>
        <List.Item prefix={<LockOutline />} onClick={() => open(Paths.password)}>
          {t('user.change_password')}
        </List.Item>
        {/* Until the link's kind is known, a tap would open the in-app chat whatever it is. */}
        <List.Item prefix={<MessageOutline />} onClick={openService} disabled={basicInfo.isPending}>
          {t('user.customer_service')}
        </List.Item>
        <List.Item prefix={<MailOutline />} onClick={() => void navigate(Paths.email)}>
          {t('complaint.title')}
        </List.Item>
        <List.Item
          prefix={<SoundOutline />}
          extra={
            unread.data ? (
              <Badge
                content={unread.data}
                aria-label={t('announcement.unread_count', { count: unread.data })}
                data-testid="unread-notices"
              />
            ) : null
          }
          onClick={() => void navigate(Paths.announcement)}
        >
          {t('announcement.title')}
        </List.Item>
        <List.Item prefix={<GlobalOutline />} onClick={() => void navigate(Paths.language)}>
          {t('language.title')}
        </List.Item>
        <List.Item prefix={<SetOutline />} onClick={() => void navigate(Paths.system)}>
          {t('user.settings')}
        </List.Item>
        <List.Item prefix={<EditSOutline />} onClick={() => void navigate(Paths.feedback)}>
          {t('user.feedback')}
        </List.Item>
        <List.Item onClick={confirmLogout} className="logout-item">
          {t('user.logout')}
        </List.Item>
      </List>
    </Screen>
  );
}
