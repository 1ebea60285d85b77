import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  DEFAULT_PAGE_SIZE,
  filterParams,
  PAGE_SIZES,
  parseParams,
  parseTable,
  toggleSort,
  toSearch,
  viewParams,
  withFilters,
  type ParamSchema,
  type ParamValues,
  type TableState,
} from './urlState';

/**
 * A page's filters, paging and sort in the address bar (see urlState.ts). Changes replace the
 * history entry (typing a filter must not fill Back with every letter); a filter change goes
 * back to page 1. `schema` must be a constant (module level).
 */
export function useUrlState<S extends ParamSchema>(schema: S, sizes: readonly number[] = PAGE_SIZES, defaultSize = DEFAULT_PAGE_SIZE) {
  const [search, setSearch] = useSearchParams();
  const values = useMemo(() => parseParams(schema, search), [schema, search]);
  const table = useMemo(() => parseTable(search, sizes, defaultSize), [search, sizes, defaultSize]);
  return useMemo(() => {
    const go = (v: ParamValues<S>, t: TableState) => setSearch(toSearch(v, t, defaultSize), { replace: true });
    return {
      values,
      table,
      /** The filters that are set, for exports and calls without paging. */
      filters: filterParams(values),
      /** The paged view's query: filters, Page, Size, SortBy, SortDescending. */
      params: viewParams(values, table),
      setFilters: (patch: ParamValues<S>) => go(withFilters(values, patch), { ...table, page: 1 }),
      clearFilters: () => go({}, { ...table, page: 1 }),
      setPage: (page: number) => go(values, { ...table, page }),
      setSize: (size: number) => go(values, { ...table, size, page: 1 }),
      /** Header click; `current` is the sort in force when the address bar names none. */
      sort: (column: string, current: TableState = table) => go(values, toggleSort(current, column)),
    };
  }, [values, table, setSearch, defaultSize]);
}
