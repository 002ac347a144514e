import dayjs from 'dayjs';

/** An instant from the API (ISO text) in the operator's local time, to the second. */
export const formatDateTime = (value: string | null | undefined): string =>
  value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : '—';

export function DateTime({ value }: { value: string | null | undefined }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(value)}</span>;
}
