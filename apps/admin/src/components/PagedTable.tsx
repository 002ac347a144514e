import type { UseQueryResult } from '@tanstack/react-query';
import { Table, type TableProps } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import type { Page } from '../api';
import { QueryError } from './QueryError';

type PagedTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'loading' | 'locale' | 'pagination'> & {
  /** The page the server sent; while a refetch fails, the last good page stays on screen. */
  list: UseQueryResult<Page<T>>;
  page: number;
  /** What the server is asked for: the pager's size until the first page arrives. */
  pageSize: number;
  onPage: (page: number) => void;
  emptyText: ReactNode;
  /** The row's id for `data-testid="row-<id>"` (default: its `id`). */
  idOf?: (row: T) => string | number;
};

/** A list the server pages: rows, loading, the server's page and total, and a retry when it could not load. */
export function PagedTable<T>({ list, page, pageSize, onPage, emptyText, idOf, onRow, ...table }: PagedTableProps<T>) {
  if (list.isError && !list.data) return <QueryError error={list.error} onRetry={() => void list.refetch()} />;
  const id = idOf ?? ((row: T) => (row as { id: string | number }).id);
  return (
    <Table<T>
      rowKey={(row) => id(row)}
      dataSource={list.data?.data ?? []}
      loading={list.isFetching}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText }}
      onRow={(row, index) => ({ 'data-testid': `row-${id(row)}`, ...onRow?.(row, index) }) as HTMLAttributes<HTMLElement>}
      pagination={{
        current: page,
        pageSize: list.data?.page_size ?? pageSize,
        total: list.data?.total ?? 0,
        showSizeChanger: false,
        onChange: onPage,
      }}
      {...table}
    />
  );
}
