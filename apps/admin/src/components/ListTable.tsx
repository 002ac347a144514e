import type { UseQueryResult } from '@tanstack/react-query';
import { Table, type TablePaginationConfig, type TableProps } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { EmptyState, LoadError } from './BackOfficeStates';

type ListTableProps<T> = Omit<TableProps<T>, 'locale' | 'size'> & {
  query: Pick<UseQueryResult, 'isError' | 'error' | 'isFetching' | 'refetch'>;
  /** The row's id for `data-testid="row-<id>"`. */
  testId: (row: T) => string | number;
};

/** A back-office list: the load error with a retry, or a compact table whose rows the browser tests can find. */
export function ListTable<T>({ query, testId, onRow, ...table }: ListTableProps<T>) {
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Table<T>
      size="small"
      loading={query.isFetching}
      locale={{ emptyText: <EmptyState /> }}
      onRow={(row, index) => ({ 'data-testid': `row-${testId(row)}`, ...onRow?.(row, index) }) as HTMLAttributes<HTMLElement>}
      {...table}
    />
  );
}

/** The page and page size a list asks the server for, and the pager that changes them (a new size starts at page 1). */
export function usePager() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const pagination = (total: number): TablePaginationConfig => ({
    current: page,
    pageSize,
    total,
    showSizeChanger: true,
    onChange: (next, size) => {
      setPage(size === pageSize ? next : 1);
      setPageSize(size);
    },
  });
  return { page, pageSize, setPage, pagination };
}
