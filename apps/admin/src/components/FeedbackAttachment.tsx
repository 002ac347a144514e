import { useQuery } from '@tanstack/react-query';
import { Image, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { adminFetch } from '../api';

/** A feedback's image: fetched with the operator's token (uploads are private) and shown from a blob URL. */
export function FeedbackAttachment({ uploadId }: { uploadId: string }) {
  const { t } = useTranslation('feedback');
  const image = useQuery({
    queryKey: ['upload', uploadId],
    queryFn: async () => {
      const response = await adminFetch(`/uploads/${encodeURIComponent(uploadId)}`);
      if (!response.ok || !response.headers.get('content-type')?.startsWith('image/')) throw new Error(t('attachment_failed'));
      return URL.createObjectURL(await response.blob());
    },
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = image.data;
  // The blob URL holds the image in memory until revoked.
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);

  if (image.isPending) return <Spin size="small" />;
  if (image.isError) return <Typography.Text type="danger">{t('attachment_failed')}</Typography.Text>;
  return <Image src={url} alt={t('attachment')} width={96} height={96} style={{ objectFit: 'cover' }} />;
}
