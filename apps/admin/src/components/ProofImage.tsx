import { Empty, Image, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { adminFetch, ApiError } from '../api';
import { QueryError } from './QueryError';

const OPERATOR_UPLOADS = '/admin/api/uploads/';

/**
 * An image a user sent (deposit proof, ID card). A signed link is shown as is; an operator upload path
 * (or a bare upload id) is fetched with the operator's token and shown as a blob URL, released when gone.
 */
export function ProofImage({ src, alt, width = 320 }: { src: string | null | undefined; alt: string; width?: number | string }) {
  const { t } = useTranslation('reviews');
  const uploadId = !src
    ? null
    : src.startsWith(OPERATOR_UPLOADS)
      ? src.slice(OPERATOR_UPLOADS.length)
      : /^[\w-]+$/.test(src)
        ? src
        : null;
  const blob = useQuery({
    queryKey: ['upload', uploadId],
    enabled: uploadId !== null,
    staleTime: Infinity,
    gcTime: 60_000,
    queryFn: async () => {
      const response = await adminFetch(`/uploads/${encodeURIComponent(uploadId ?? '')}`);
      if (!response.ok || !response.headers.get('content-type')?.startsWith('image/')) {
        throw new ApiError(response.status, t('image_unavailable'));
      }
      return response.blob();
    },
  });
  const blobUrl = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : null), [blob.data]);
  useEffect(
    () => () => {
      if (blobUrl) URL.revokeObjectURL(blobUrl);
    },
    [blobUrl],
  );

  if (!src) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('no_image')} />;
  if (uploadId === null) return <Image src={src} alt={alt} width={width} style={{ maxWidth: '100%' }} />;
  if (blob.isPending) return <Skeleton.Image active style={{ width, height: 200 }} />;
  if (blob.isError || !blobUrl) return <QueryError error={blob.error} onRetry={() => void blob.refetch()} />;
  return <Image src={blobUrl} alt={alt} width={width} style={{ maxWidth: '100%' }} />;
}
