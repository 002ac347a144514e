import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhTW from 'antd/locale/zh_TW';
import 'antd/dist/reset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { HashRouter } from 'react-router';
import { App } from './App';
import { i18nReady } from './i18n';
import { SessionProvider } from './session';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true }, mutations: { retry: false } },
});

/** An operator whose system asks for less motion gets none: antd's drawers, modals and spinners switch at once. */
const prefersReducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function Providers() {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={i18n.language === 'hk' ? zhTW : enUS} theme={{ token: { motion: !prefersReducedMotion } }}>
      <QueryClientProvider client={queryClient}>
        <HashRouter>
          <SessionProvider>
            <App />
          </SessionProvider>
        </HashRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
// The words every page shares first: nothing renders as keys while they load.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <Providers />
    </StrictMode>,
  ),
);
