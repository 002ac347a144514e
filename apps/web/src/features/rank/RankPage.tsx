import { Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useLeaderboardQuery } from '../../api/queries/content';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatNumber, formatPercent } from '../../i18n/format';
import './rank.css';

/** The traders leaderboard (docs/api.md ranking); tapping a trader points to the Copy tab, where those one may copy are. */
export default function RankPage() {
  const { t } = useTranslation();
  const board = useLeaderboardQuery();
  return (
    <Screen withTabBar title={t('rank.title')}>
      {board.isPending ? (
        <ListSkeleton />
      ) : board.isError ? (
        <ErrorState onRetry={() => void board.refetch()} />
      ) : board.data.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="rank-list" aria-label={t('rank.title')}>
          {board.data.map((entry, index) => (
            <li key={entry.uid}>
              <button
                type="button"
                className="rank-row"
                onClick={() => void Dialog.alert({ content: t('rank.copy_hint'), confirmText: t('common.ok') })}
              >
                <span className="rank-place num">{formatNumber(index + 1, 0)}</span>
                {/* A person's name or address: never translated, always left to right (an e-mail in Arabic). */}
                <span className="rank-user" translate="no" dir="ltr">
                  {entry.user}
                </span>
                <span className="rank-figure">
                  <span className="label">{t('rank.three_week_rate')}</span>
                  <span className="num">{formatPercent(entry.three_week_rate)}</span>
                </span>
                <span className="rank-figure">
                  <span className="label">{t('rank.win_rate')}</span>
                  <span className="num">{formatPercent(entry.three_week_win)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}
