import { z } from 'zod';
import { LANGUAGES, type Language } from '../languages.js';
import { inputOrDefault, intFromInput, optionalText, pageQuery, positiveIntId, requiredText } from './common.js';

export const NEWS_CONTENT_MAX = 50_000;

/** GET /api/news/list: `category_id` absent or 0 means every category. */
export const ZNewsListQuery = pageQuery.extend({
  category_id: inputOrDefault(
    intFromInput('news_category_invalid', (number) => number.min(0, { error: 'news_category_invalid' })),
    0,
  ),
});
export type TNewsListQuery = z.infer<typeof ZNewsListQuery>;

/** GET /api/news/info. */
export const ZNewsInfoQuery = z.object({ id: positiveIntId('news_id_invalid') });
export type TNewsInfoQuery = z.infer<typeof ZNewsInfoQuery>;

/** A news article in a list (docs/api.md). */
export interface NewsItemView {
  id: number;
  /** The article's language (one of ours): a reader may be shown English when theirs has none. */
  lang: Language;
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

/** What an operator publishes as a news article (the back office's form, until then the operator API). */
export const ZNewsCreate = z.object({
  lang: z.enum(LANGUAGES, { error: 'news_lang_invalid' }),
  title: requiredText('news_title_required', 200),
  description: optionalText(500),
  content: z
    .string({ error: 'news_content_required' })
    .max(NEWS_CONTENT_MAX, { error: 'field_too_long' })
    .refine((value) => !value.includes('\u0000'), { error: 'field_invalid' }),
  category_id: intFromInput('news_category_invalid', (number) => number.min(0, { error: 'news_category_invalid' })).default(0),
  published: z.boolean({ error: 'field_invalid' }).default(true),
});
export type TNewsCreate = z.infer<typeof ZNewsCreate>;
