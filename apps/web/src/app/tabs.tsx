import { AppOutline, FileOutline, HistogramOutline, StarOutline, UnorderedListOutline, UserOutline } from 'antd-mobile-icons';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import HomePage from '../features/home/HomePage';
import { Paths } from '../routing/paths';
import { lazyScreen } from './antdRender';

export interface TabDef {
  path: string;
  labelKey: string;
  icon: ReactNode;
  Screen: ComponentType | LazyExoticComponent<ComponentType>;
  requiresLogin: boolean;
}

/** The footer tabs (docs/product.md, "Screens"). Home ships in the entry chunk; the others load when first opened. */
export const TABS: TabDef[] = [
  { path: Paths.home, labelKey: 'nav.quotes', icon: <AppOutline />, Screen: HomePage, requiresLogin: false },
  {
    path: Paths.trade,
    labelKey: 'nav.trade',
    icon: <HistogramOutline />,
    Screen: lazyScreen(() => import('../features/trade/TradePage')),
    requiresLogin: false,
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
