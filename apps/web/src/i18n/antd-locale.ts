import type { TFunction } from 'i18next';
import enUS from 'antd-mobile/es/locales/en-US';

type AntdLocale = typeof enUS;

/** antd-mobile's built-in texts (confirm, cancel, pull-to-refresh, …) from our own catalogue. */
export function antdLocale(t: TFunction, language: string): AntdLocale {
  return {
    ...enUS,
    locale: language,
    common: { confirm: t('common.confirm'), cancel: t('common.cancel'), loading: t('common.loading'), close: t('common.close') },
    Dialog: { ok: t('common.ok') },
    Modal: { ok: t('common.ok') },
    InfiniteScroll: { noMore: t('common.no_more'), failedToLoad: t('common.load_failed'), retry: t('common.retry') },
    Input: { clear: t('common.clear') },
    PullToRefresh: {
      pulling: t('common.pull_to_refresh'),
      canRelease: t('common.release_to_refresh'),
      complete: t('common.refreshed'),
    },
    SearchBar: { name: t('common.search') },
    Stepper: { decrease: t('common.decrease'), increase: t('common.increase') },
    Switch: { name: t('common.switch') },
    Selector: { name: t('common.selector') },
    Mask: { name: t('common.mask') },
  };
}
