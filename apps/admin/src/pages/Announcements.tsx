import { ANNOUNCEMENT_CONTENT_MAX } from '@pipwise/domain';
import { ContentManager } from '../components/ContentManager';

export default function Announcements() {
  return <ContentManager kind="announcements" contentMax={ANNOUNCEMENT_CONTENT_MAX} />;
}
