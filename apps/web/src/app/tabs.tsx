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

/**
 * The tab icons: antd-mobile's outline icons' own outlines, their coordinates rounded to a tenth of the
 * 48-unit box (a twentieth of a pixel at tab size) and without the icon components' wrapping groups, so
 * the first screen downloads 2 KB less; copy trading's (a leader and a follower) is drawn here.
 */
const ICON_PATHS = {
  quotes:
    'M38.7,11.5L27.4,4.9C25.3,3.7 22.7,3.7 20.7,4.9L9.3,11.5C7.3,12.7 6,15 6,17.4L6,30.6C6,33 7.3,35.3 9.3,36.5L20.7,43.1C22.7,44.3 25.3,44.3 27.3,43.1L38.7,36.5C40.7,35.3 42,33 42,30.6L42,17.4C42,15 40.7,12.7 38.7,11.5ZM8.6,17.4C8.6,15.9 9.4,14.5 10.7,13.8L22,7.2C23.2,6.4 24.8,6.4 26,7.2L32.5,10.9L12.9,22.4L8.6,19.8L8.6,17.4ZM23.7,19.1L32.5,24.2L24.2,29L15.5,23.9L23.7,19.1L23.7,19.1ZM10.7,34.2C9.4,33.5 8.6,32.1 8.6,30.6L8.6,22.8L21.7,30.5L13,35.6L10.7,34.2L10.7,34.2ZM39.4,30.6C39.4,32.1 38.6,33.5 37.3,34.2L26,40.8C24.8,41.5 23.2,41.5 22,40.8L15.6,37.1L35,25.7L39.4,28.2L39.4,30.6L39.4,30.6ZM39.4,25.2L35.6,23L26.3,17.6L35.1,12.4L37.3,13.8C38.6,14.5 39.4,15.9 39.4,17.4L39.4,25.2L39.4,25.2Z',
  trade:
    'M39.5,13C41.7,13 43.5,14.8 43.5,17L43.5,38C43.5,40.2 41.7,42 39.5,42L36.5,42C34.3,42 32.5,40.2 32.5,38L32.5,17C32.5,14.8 34.3,13 36.5,13L39.5,13ZM25.5,6C27.7,6 29.5,7.8 29.5,10L29.5,38C29.5,40.2 27.7,42 25.5,42L22.5,42C20.3,42 18.5,40.2 18.5,38L18.5,10C18.5,7.8 20.3,6 22.5,6L25.5,6ZM11.5,23C13.7,23 15.5,24.8 15.5,27L15.5,38C15.5,40.2 13.7,42 11.5,42L8.5,42C6.3,42 4.5,40.2 4.5,38L4.5,27C4.5,24.8 6.3,23 8.5,23L11.5,23ZM39.5,16L36.5,16C36,16 35.6,16.4 35.5,16.9L35.5,17L35.5,38C35.5,38.5 35.9,38.9 36.4,39L36.5,39L39.5,39C40,39 40.4,38.6 40.5,38.1L40.5,38L40.5,17C40.5,16.5 40.1,16.1 39.6,16L39.5,16ZM25.5,9L22.5,9C22,9 21.6,9.4 21.5,9.9L21.5,10L21.5,38C21.5,38.5 21.9,38.9 22.4,39L22.5,39L25.5,39C26,39 26.4,38.6 26.5,38.1L26.5,38L26.5,10C26.5,9.5 26.1,9.1 25.6,9L25.5,9ZM11.5,26L8.5,26C8,26 7.6,26.4 7.5,26.9L7.5,27L7.5,38C7.5,38.5 7.9,38.9 8.4,39L8.5,39L11.5,39C12,39 12.4,38.6 12.5,38.1L12.5,38L12.5,27C12.5,26.5 12.1,26.1 11.6,26L11.5,26Z',
  order:
    'M8.5,32C11,32 13,34 13,36.5C13,39 11,41 8.5,41C6,41 4,39 4,36.5C4,34 6,32 8.5,32ZM8.5,35C7.7,35 7,35.7 7,36.5C7,37.3 7.7,38 8.5,38C9.3,38 10,37.3 10,36.5C10,35.7 9.3,35 8.5,35ZM43.6,35C43.8,35 44,35.2 44,35.4L44,37.6C44,37.8 43.8,38 43.6,38L16.4,38C16.2,38 16,37.8 16,37.6L16,35.4C16,35.2 16.2,35 16.4,35L43.6,35ZM8.5,19C11,19 13,21 13,23.5C13,26 11,28 8.5,28C6,28 4,26 4,23.5C4,21 6,19 8.5,19ZM8.5,22C7.7,22 7,22.7 7,23.5C7,24.3 7.7,25 8.5,25C9.3,25 10,24.3 10,23.5C10,22.7 9.3,22 8.5,22ZM43.6,22C43.8,22 44,22.2 44,22.4L44,24.6C44,24.8 43.8,25 43.6,25L16.4,25C16.2,25 16,24.8 16,24.6L16,22.4C16,22.2 16.2,22 16.4,22L43.6,22ZM8.5,6C11,6 13,8 13,10.5C13,13 11,15 8.5,15C6,15 4,13 4,10.5C4,8 6,6 8.5,6ZM8.5,9C7.7,9 7,9.7 7,10.5C7,11.3 7.7,12 8.5,12C9.3,12 10,11.3 10,10.5C10,9.7 9.3,9 8.5,9ZM43.6,9C43.8,9 44,9.2 44,9.4L44,11.6C44,11.8 43.8,12 43.6,12L16.4,12C16.2,12 16,11.8 16,11.6L16,9.4C16,9.2 16.2,9 16.4,9L43.6,9Z',
  rank: 'M25.8,4.4C26.7,4.9 27.3,5.6 27.7,6.4L31.7,14.7L40.4,16C42.7,16.4 44.3,18.6 44,20.9C43.8,21.9 43.4,22.7 42.7,23.4L36.4,29.8L37.9,38.9C38.3,41.3 36.8,43.5 34.5,43.9C33.6,44.1 32.7,43.9 31.8,43.5L24,39.2L16.2,43.5C14.1,44.6 11.6,43.8 10.5,41.7C10.1,40.8 10,39.9 10.1,38.9L11.6,29.8L5.3,23.4C3.6,21.7 3.6,19 5.2,17.3C5.8,16.6 6.7,16.1 7.6,16L16.3,14.7L20.3,6.4C21.3,4.3 23.8,3.4 25.8,4.4ZM24.5,7.2C24,6.9 23.4,7.1 23.1,7.6L23.1,7.7L18.4,17.6L7.9,19.2C7.7,19.2 7.5,19.3 7.3,19.5C6.9,19.9 6.9,20.5 7.2,20.9L7.3,21L14.9,28.8L13.1,39.6C13.1,39.9 13.1,40.1 13.2,40.3C13.5,40.8 14,41 14.5,40.8L14.6,40.8L24,35.7L33.4,40.8C33.6,40.9 33.8,40.9 34,40.9C34.6,40.8 34.9,40.3 34.9,39.8L34.9,39.6L33.1,28.8L40.7,21C40.8,20.9 41,20.7 41,20.4C41.1,19.9 40.7,19.3 40.2,19.2L40.1,19.2L29.6,17.6L24.9,7.7C24.9,7.5 24.7,7.4 24.6,7.3L24.5,7.2Z',
  news: 'M38,4C41.3,4 44,6.7 44,10L44,38C44,41.3 41.3,44 38,44L10,44C6.7,44 4,41.3 4,38L4,10C4,6.7 6.7,4 10,4L38,4ZM38,7L10,7C8.4,7 7.1,8.2 7,9.8L7,10L7,38C7,39.6 8.2,40.9 9.8,41L10,41L38,41C39.6,41 40.9,39.8 41,38.2L41,38L41,10C41,8.4 39.8,7.1 38.2,7L38,7ZM23.6,29C23.8,29 24,29.2 24,29.4L24,31.6C24,31.8 23.8,32 23.6,32L14.4,32C14.2,32 14,31.8 14,31.6L14,29.4C14,29.2 14.2,29 14.4,29L23.6,29ZM33.6,23C33.8,23 34,23.2 34,23.4L34,25.6C34,25.8 33.8,26 33.6,26L14.4,26C14.2,26 14,25.8 14,25.6L14,23.4C14,23.2 14.2,23 14.4,23L33.6,23ZM33.6,17C33.8,17 34,17.2 34,17.4L34,19.6C34,19.8 33.8,20 33.6,20L14.4,20C14.2,20 14,19.8 14,19.6L14,17.4C14,17.2 14.2,17 14.4,17L33.6,17Z',
  user: 'M24.5,4C30,4 34.5,8.5 34.5,14L34.5,18C34.5,21.7 32.5,24.9 29.5,26.7L29.5,27L40.5,32.9C42.9,34.2 44.3,36.8 44,39.5C43.7,42.1 41.5,44 38.9,44L10.1,44C7.5,44 5.3,42.1 5,39.5C4.7,36.8 6.1,34.2 8.5,32.9L19.5,27L19.5,26.7C16.5,24.9 14.5,21.7 14.5,18L14.5,14C14.5,8.5 19,4 24.5,4ZM24.5,7C20.7,7 17.7,10 17.5,13.7L17.5,14L17.5,18C17.5,20.5 18.8,22.7 20.8,23.9L21,24.1L22.3,24.8C22.4,24.9 22.5,25 22.5,25.2L22.5,28.6C22.5,28.7 22.4,28.8 22.3,28.9L9.9,35.5L9.9,35.5C8.6,36.2 7.9,37.7 8,39.2C8.1,40.2 8.9,40.9 9.9,41L10.1,41L38.9,41C40,41 40.9,40.2 41,39.2C41.1,37.7 40.4,36.4 39.2,35.6L39.1,35.5L26.7,28.9C26.6,28.8 26.5,28.7 26.5,28.6L26.5,25.2C26.5,25 26.6,24.9 26.7,24.8L28,24.1L28,24.1C30.1,22.9 31.4,20.7 31.5,18.3L31.5,18L31.5,14C31.5,10.1 28.4,7 24.5,7Z',
};

const icon = (d: string) => (
  <svg width="1em" height="1em" viewBox="0 0 48 48" style={{ verticalAlign: '-0.125em' }}>
    <path d={d} fill="currentColor" />
  </svg>
);

const copyIcon = (
  <svg
    width="1em"
    height="1em"
    viewBox="0 0 48 48"
    style={{ verticalAlign: '-0.125em' }}
    fill="none"
    stroke="currentColor"
    strokeWidth="3"
  >
    <circle cx="18" cy="15" r="8" />
    <path d="M4 42c0-8 6-14 14-14s14 6 14 14M31 7a8 8 0 0 1 0 16M36 29c5 2 8 7 8 13" />
  </svg>
);

/** The footer tabs (docs/product.md, "Screens"). Home ships in the entry chunk; the others load when first opened. */
export const TABS: TabDef[] = [
  {
    path: Paths.copy,
    labelKey: 'nav.documentary',
    icon: copyIcon,
    Screen: lazyScreen(() => import('../features/copy/CopyTradingPage')),
    requiresLogin: false,
  },
  {
    path: Paths.home,
    labelKey: 'nav.quotes',
    icon: icon(ICON_PATHS.quotes),
    Screen: HomePage,
    requiresLogin: false,
    prefetch: prefetchTradeList,
  },
  {
    path: Paths.trade,
    labelKey: 'nav.trade',
    icon: icon(ICON_PATHS.trade),
    Screen: lazyScreen(() => import('../features/trade/TradePage')),
    requiresLogin: false,
    prefetch: prefetchTradeList,
  },
  {
    path: Paths.order,
    labelKey: 'nav.order',
    icon: icon(ICON_PATHS.order),
    Screen: lazyScreen(() => import('../features/order/OrderPage')),
    requiresLogin: true,
  },
  {
    path: Paths.rank,
    labelKey: 'nav.rank',
    icon: icon(ICON_PATHS.rank),
    Screen: lazyScreen(() => import('../features/rank/RankPage')),
    requiresLogin: false,
  },
  {
    path: Paths.news,
    labelKey: 'nav.news',
    icon: icon(ICON_PATHS.news),
    Screen: lazyScreen(() => import('../features/news/NewsPage')),
    requiresLogin: false,
  },
  {
    path: Paths.user,
    labelKey: 'nav.user',
    icon: icon(ICON_PATHS.user),
    Screen: lazyScreen(() => import('../features/user/UserPage')),
    requiresLogin: true,
  },
];
