import { z } from 'zod';
import { intFromInput, pageQuery, positiveIntId } from './common.js';

/** GET /api/news/list: `category_id` absent or 0 means every category. */
export const ZNewsListQuery = pageQuery.extend({
  category_id: intFromInput('news_category_invalid', (number) => number.min(0, { error: 'news_category_invalid' })).default(0),
});
export type TNewsListQuery = z.infer<typeof ZNewsListQuery>;

/** GET /api/news/info. */
export const ZNewsInfoQuery = z.object({ id: positiveIntId('news_id_invalid') });
export type TNewsInfoQuery = z.infer<typeof ZNewsInfoQuery>;

/** A news article in a list (spec §3). */
export interface NewsItemView {
  id: number;
  title: string;
  desc: string;
  /** Image URL, empty when the article has none. */
  logo: string;
  /** ISO 8601; the client formats it in the reader's language. */
  created_at: string;
}

/** The article itself: `content` is HTML written (and sanitised) by the back office. */
export interface NewsDetailView extends NewsItemView {
  content: string;
}

export interface NewsListView {
  data: NewsItemView[];
  total: number;
  page: number;
  page_size: number;
}
