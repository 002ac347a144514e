import { Badge } from 'antd-mobile';
import { BellOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccountNoticeUnreadQuery } from '../api/queries/accountNotices';
import { Paths } from '../routing/paths';
import { useSession } from '../stores/session';

/** The bell: the signed-in user's account notices, with how many are unread (loaded lazily: see LazyNoticeBell). */
export default function NoticeBell() {
  const { t } = useTranslation();
  const signedIn = useSession((state) => Boolean(state.token));
  const unread = useAccountNoticeUnreadQuery();
  if (!signedIn) return null;
  const count = unread.data ?? 0;
  return (
    <Link
      to={Paths.accountNotices}
      className="notice-bell"
      aria-label={t('notices.open', { unread: count })}
      data-testid="notice-bell"
    >
      <Badge content={count > 0 ? count : null}>
        <BellOutline fontSize={22} />
      </Badge>
    </Link>
  );
}
