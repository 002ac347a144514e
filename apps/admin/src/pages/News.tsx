import { NEWS_CONTENT_MAX } from '@pipwise/domain';
import { ContentManager } from '../components/ContentManager';

export default function News() {
  return <ContentManager kind="news" contentMax={NEWS_CONTENT_MAX} withDescription />;
}
