import { useQueryClient } from '@tanstack/react-query';
import { Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { liveSocket } from '../../api/live';
import { useLogoutMutation } from '../../api/queries/auth';
import { identityKeys } from '../../api/queries/identity';
import { Paths } from '../../app/paths';
import { useSession } from '../../stores/session';

/**
 * Logout with its confirmation (spec §4, §5): the server ends the session, the socket is told, the user is
 * forgotten, home is shown and a success message says so. Shared by every screen that offers logout.
 */
export function useLogout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const logout = useLogoutMutation();

  return () =>
    void Dialog.confirm({
      content: t('user.logout_confirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onConfirm: async () => {
        // The server ends the session; whatever it answers, this device forgets it.
        await logout.mutateAsync().catch(() => undefined);
        liveSocket.logout();
        // Home first, drawn at once (spec §4): signed out while a screen that needs a session is still the
        // one drawn, the shell would send the visitor to the login screen instead.
        await navigate(Paths.home, { replace: true, flushSync: true });
        useSession.getState().signOut();
        client.removeQueries({ queryKey: ['account'] });
        client.removeQueries({ queryKey: ['orders'] });
        client.removeQueries({ queryKey: identityKeys.all });
        Toast.show({ icon: 'success', content: t('user.logged_out') });
      },
    });
}
