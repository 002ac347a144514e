import { useQueryClient } from '@tanstack/react-query';
import { Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { liveSocket } from '../api/live';
import { useLogoutMutation } from '../api/queries/auth';
import { authKeys } from '../api/queries/auth';
import { companyKeys } from '../api/queries/company';
import { contentKeys } from '../api/queries/content';
import { marketKeys } from '../api/queries/market';
import { Paths } from '../routing/paths';
import { useSession } from '../stores/session';

/** Query roots that hold what every visitor sees (markets, news, companies, reference data). */
const PUBLIC_QUERY_ROOTS = new Set<unknown>([marketKeys.all[0], contentKeys.all[0], companyKeys.all[0], authKeys.all[0]]);

/**
 * Logout with its confirmation (docs/api.md): the server ends the session, the socket is told, the user is
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
        // Home first, drawn at once (docs/api.md): signed out while a screen that needs a session is still the
        // one drawn, the shell would send the visitor to the login screen instead.
        await navigate(Paths.home, { replace: true, flushSync: true });
        useSession.getState().signOut();
        // Everything fetched for this user goes (orders, money, records, identity…), so the next person
        // signing in on this phone never glimpses it; only what every visitor sees is kept.
        client.removeQueries({ predicate: (query) => !PUBLIC_QUERY_ROOTS.has(query.queryKey[0]) });
        Toast.show({ icon: 'success', content: t('user.logged_out') });
      },
    });
}
