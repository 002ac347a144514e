import { LANGUAGE_LOCALES, ResponseCode } from '@pipwise/domain';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useNewsArticleQuery } from '../../api/queries/content';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime } from '../../i18n/format';
import './news.css';

const articleId = (value: string | null) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/**
 * One article (docs/api.md newsDetail, /news/detail?id=). Its content is HTML from the back office, which
 * sanitises it before storing; it is sanitised again here before it reaches the page, so a stored
 * script or handler never runs whoever wrote it.
 */
export default function NewsDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = articleId(params.get('id'));
  const article = useNewsArticleQuery(id);
  const content = useMemo(
    () => (article.data ? DOMPurify.sanitize(article.data.content, { USE_PROFILES: { html: true } }) : ''),
    [article.data],
  );
  /** The article's own language: a reader whose language has no articles is shown English ones. */
  const written = article.data ? LANGUAGE_LOCALES[article.data.lang] : undefined;
  const missing = id === null || (article.error instanceof ApiError && article.error.code === ResponseCode.notFound);
  return (
    <Screen title={t('news.title')} back>
      {missing ? (
        <EmptyState />
      ) : article.isPending ? (
        <ListSkeleton rows={3} />
      ) : article.isError ? (
        <ErrorState onRetry={() => void article.refetch()} />
      ) : (
        <article className="news-article">
          <h1 lang={written} dir="auto">
            {article.data.title}
          </h1>
          <time className="num">{formatDateTime(article.data.created_at)}</time>
          {article.data.logo && <img src={article.data.logo} alt="" className="news-article-logo" />}
          <div className="news-article-content" lang={written} dir="auto" dangerouslySetInnerHTML={{ __html: content }} />
        </article>
      )}
    </Screen>
  );
}
