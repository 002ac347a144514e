import type { OperatorRole } from '@pipwise/domain';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every page of the back office: its path, menu group and label (namespace `nav`), and the roles that
 * may open it (the server decides again on every call; this only hides what would be refused).
 * Pages are loaded lazily, one chunk each.
 */
export interface PageEntry {
  path: string;
  group: 'reviews' | 'money' | 'users' | 'catalogue' | 'content' | 'system';
  label: string;
  roles: readonly OperatorRole[];
  component: LazyExoticComponent<ComponentType>;
}

export const PAGES: PageEntry[] = [
  { path: '/risk', group: 'money', label: 'risk', roles: ['finance', 'support'], component: lazy(() => import('./pages/Risk')) },
  {
    path: '/deposits',
    group: 'reviews',
    label: 'deposits',
    roles: ['finance'],
    component: lazy(() => import('./pages/DepositsQueue')),
  },
  {
    path: '/withdrawals',
    group: 'reviews',
    label: 'withdrawals',
    roles: ['finance'],
    component: lazy(() => import('./pages/WithdrawalsQueue')),
  },
  { path: '/kyc', group: 'reviews', label: 'kyc', roles: ['compliance'], component: lazy(() => import('./pages/KycQueue')) },
  {
    path: '/adjustments',
    group: 'money',
    label: 'adjustments',
    roles: ['finance'],
    component: lazy(() => import('./pages/Adjustments')),
  },
  {
    path: '/users',
    group: 'users',
    label: 'users',
    roles: ['support', 'finance', 'compliance'],
    component: lazy(() => import('./pages/Users')),
  },
  {
    path: '/copy-trading',
    group: 'users',
    label: 'copy_trading',
    roles: ['support', 'finance', 'compliance', 'content'],
    component: lazy(() => import('./pages/CopyTrading')),
  },
  { path: '/feedback', group: 'users', label: 'feedback', roles: ['support'], component: lazy(() => import('./pages/Feedback')) },
  { path: '/outbox', group: 'users', label: 'outbox', roles: ['support'], component: lazy(() => import('./pages/Outbox')) },
  {
    path: '/instruments',
    group: 'catalogue',
    label: 'instruments',
    roles: ['content'],
    component: lazy(() => import('./pages/Instruments')),
  },
  {
    path: '/categories',
    group: 'catalogue',
    label: 'categories',
    roles: ['content'],
    component: lazy(() => import('./pages/Categories')),
  },
  {
    path: '/deposit-channels',
    group: 'catalogue',
    label: 'deposit_channels',
    roles: ['finance'],
    component: lazy(() => import('./pages/DepositChannels')),
  },
  {
    path: '/withdraw-currencies',
    group: 'catalogue',
    label: 'withdraw_currencies',
    roles: ['finance'],
    component: lazy(() => import('./pages/WithdrawCurrencies')),
  },
  {
    path: '/companies',
    group: 'catalogue',
    label: 'companies',
    roles: ['content'],
    component: lazy(() => import('./pages/Companies')),
  },
  { path: '/news', group: 'content', label: 'news', roles: ['content'], component: lazy(() => import('./pages/News')) },
  {
    path: '/announcements',
    group: 'content',
    label: 'announcements',
    roles: ['content'],
    component: lazy(() => import('./pages/Announcements')),
  },
  {
    path: '/settings',
    group: 'system',
    label: 'settings',
    roles: ['content', 'finance'],
    component: lazy(() => import('./pages/Settings')),
  },
  { path: '/audit', group: 'system', label: 'audit', roles: ['superadmin'], component: lazy(() => import('./pages/Audit')) },
  {
    path: '/changes',
    group: 'system',
    label: 'changes',
    roles: ['superadmin'],
    component: lazy(() => import('./pages/Changes')),
  },
  {
    path: '/operators',
    group: 'system',
    label: 'operators',
    roles: ['superadmin'],
    component: lazy(() => import('./pages/Operators')),
  },
  {
    path: '/account',
    group: 'system',
    label: 'account',
    roles: ['superadmin', 'finance', 'compliance', 'support', 'content'],
    component: lazy(() => import('./pages/Account')),
  },
];
