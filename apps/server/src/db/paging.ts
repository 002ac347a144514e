/** What a back-office list asks for: a page (from 1) of `pageSize` rows. */
export interface Paging {
  page: number;
  pageSize: number;
}

/** A page of a list as the operator API answers it. */
export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  page_size: number;
}

/** One page of rows and the count of all of them, read side by side. */
export async function paged<T>(
  paging: Paging,
  rows: (limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<number>,
): Promise<Page<T>> {
  const [data, n] = await Promise.all([rows(paging.pageSize, (paging.page - 1) * paging.pageSize), total()]);
  return { data, total: n, page: paging.page, page_size: paging.pageSize };
}

/** The `n` of a `select({ n: count() })` (0 when no row came back). */
export const countOf = async (query: Promise<{ n: number }[]>) => Number((await query)[0]?.n ?? 0);
