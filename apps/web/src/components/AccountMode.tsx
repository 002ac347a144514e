import { Toast } from 'antd-mobile';
import { LoopOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { RealAccountNeeded, useSwitchAccountMutation } from '../api/queries/accountSwitch';
import { useLazyTranslation } from '../i18n/lazy';
import { loginPath, Paths } from '../routing/paths';
import { useSession } from '../stores/session';
import './AccountMode.css';

/**
 * Which account is in use, in its colour and words (demo amber, real blue), and the one-tap switch to
 * the same person's other account. A demo account without a real one beside it offers the login.
 */
export default function AccountMode() {
  const { t } = useLazyTranslation('modes');
  const navigate = useNavigate();
  const demo = useSession((state) => state.user?.is_demo === 1);
  const realKept = useSession((state) => state.kept?.user.is_demo === 0);
  const switchAccount = useSwitchAccountMutation();
  const mode = t(demo ? 'mode.demo' : 'mode.real');
  const action = t(demo ? (realKept ? 'mode.to_real' : 'mode.real_login') : 'mode.to_demo');

  // From the promise, not mutate's callbacks: the switch clears the cache, so a screen that waits for its
  // data again (the trade terminal) may unmount this button before they would run, and the toast was lost.
  const onTap = () =>
    void switchAccount.mutateAsync().then(
      (session) => Toast.show({ content: t(session.user.is_demo === 1 ? 'mode.now_demo' : 'mode.now_real') }),
      (error: unknown) => {
        if (error instanceof RealAccountNeeded) void navigate(loginPath(Paths.trade));
      },
    );

  return (
    <button
      type="button"
      className={`account-mode account-mode-${demo ? 'demo' : 'real'}`}
      data-mode={demo ? 'demo' : 'real'}
      aria-label={`${t('mode.current', { mode })}. ${action}`}
      title={action}
      disabled={switchAccount.isPending}
      onClick={onTap}
    >
      <span className="account-mode-label">{mode}</span>
      <LoopOutline aria-hidden="true" />
    </button>
  );
}
