import { QueryClientProvider } from '@tanstack/react-query';
// Components by their own paths, here and in the rest of the first screen: antd-mobile's index brings the
// animation library with it, which only popups and toasts use.
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocale } from '../i18n/antd-locale';
import { AppRouter } from './router';
import { queryClient } from './setup';

export function App() {
  const { t, i18n } = useTranslation();
  const locale = useMemo(() => antdLocale(t, i18n.language), [t, i18n.language]);
  return (
    <ConfigProvider locale={locale}>
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
