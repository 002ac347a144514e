import { AppOutline, FileOutline, HistogramOutline, StarOutline, UnorderedListOutline, UserOutline } from 'antd-mobile-icons';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { tradeListQuery } from '../api/queries/market';
import HomePage from '../features/home/HomePage';
import { Paths } from '../routing/paths';
import { lazyScreen, type LazyScreen } from './antdRender';

export interface TabDef {
  path: string;
  labelKey: string;
  icon: ReactNode;
  Screen: ComponentType | LazyScreen;
  requiresLogin: boolean;
  /** Asks for the data the tab draws first, when the app opens on it (app/firstScreen.ts). */
  prefetch?: (queryClient: QueryClient) => void;
}

/** The quotes and the trade tab draw the trade list first (the trade tab's pair and price are its largest paint). */
const prefetchTradeList = (queryClient: QueryClient) => void queryClient.prefetchQuery(tradeListQuery());

/** The footer tabs (docs/product.md, "Screens"). Home ships in the entry chunk; the others load when first opened. */
export const TABS: TabDef[] = [
  {
    path: Paths.home,
    labelKey: 'nav.quotes',
    icon: <AppOutline />,
    Screen: HomePage,
    requiresLogin: false,
    prefetch: prefetchTradeList,
  },
  {
    path: Paths.trade,
    labelKey: 'nav.trade',
    icon: <HistogramOutline />,
    Screen: lazyScreen(() => import('../features/trade/TradePage')),
    requiresLogin: false,
    prefetch: prefetchTradeList,
  },
  {
    path: Paths.order,
    labelKey: 'nav.order',
    icon: <UnorderedListOutline />,
    Screen: lazyScreen(() => import('../features/order/OrderPage')),
    requiresLogin: true,
  },
  {
    path: Paths.rank,
    labelKey: 'nav.rank',
    icon: <StarOutline />,
    Screen: lazyScreen(() => import('../features/rank/RankPage')),
    requiresLogin: false,
  },
  {
    path: Paths.news,
    labelKey: 'nav.news',
    icon: <FileOutline />,
    Screen: lazyScreen(() => import('../features/news/NewsPage')),
    requiresLogin: false,
  },
  {
    path: Paths.user,
    labelKey: 'nav.user',
    icon: <UserOutline />,
    Screen: lazyScreen(() => import('../features/user/UserPage')),
    requiresLogin: true,
  },
];
