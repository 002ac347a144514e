import { QueryClient } from '@tanstack/react-query';
import { connectFeed, feedState } from '../api/feed';
import { ApiError, configureApi } from '../api/http';
import { connectLiveData, liveSocket } from '../api/live';
import { currentLanguage, i18n } from '../i18n';
import { useBusy } from '../stores/busy';
import { useSession } from '../stores/session';
import { loadAntdRender } from './antdRender';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // Envelope failures are answers, not glitches; only network failures are worth one more try.
      retry: (count, error) => count < 1 && error instanceof ApiError && error.status === 0,
    },
    // A call the user made offline fails now, with its message; it is never held and sent on reconnect.
    mutations: { networkMode: 'always' },
  },
});

// The server writes every answer in the language of the request's `lang` header (category names, order
// texts, news), which no query key carries: a new language makes all cached answers stale. i18next's start
// sets the language the first screen's calls already went out in (app/firstScreen.ts), which is no change.
let answersIn = currentLanguage();
i18n.on('languageChanged', () => {
  if (currentLanguage() === answersIn) return;
  answersIn = currentLanguage();
  void queryClient.invalidateQueries();
});

/** Toast (and the animation library under it) loads on first use, keeping it out of the first paint's JS. */
const toast = () => Promise.all([import('antd-mobile/es/components/toast'), loadAntdRender()]).then(([module]) => module.default);

/** Wires the API client to the app. `navigate` is the router's, used when the server says 999. */
export function setupApp(navigate: (path: string) => void) {
  configureApi({
    baseUrl: () => `${location.protocol}//${location.host}`,
    token: () => useSession.getState().token,
    language: () => currentLanguage(),
    onNotLoggedIn: () => {
      useSession.getState().signOut();
      liveSocket.logout();
      queryClient.removeQueries({ queryKey: ['orders'] });
      queryClient.removeQueries({ queryKey: ['account'] });
      navigate('/login');
    },
    toast: (message) => {
      void toast().then((Toast) => Toast.show({ content: message }));
    },
    networkErrorMessage: (code) => i18n.t('common.network_error', { code }),
    offlineMessage: () => i18n.t('common.offline_not_sent'),
    pricesNotLive: () => (feedState() === 'live' ? null : i18n.t('common.prices_not_live')),
    showLoading: () => useBusy.getState().begin(),
    fetch: (input, init) => fetch(input, init),
  });
  connectLiveData(queryClient, liveSocket);
  connectFeed(queryClient);
}
