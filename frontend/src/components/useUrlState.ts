import { useMemo } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import {
  filterParams,
  PAGE_SIZES,
  parseParams,
  parseTable,
  toggleSort,
  toSearch,
  viewParams,
  withFilters,
  type ListShape,
  type ParamSchema,
  type ParamValues,
  type TableState,
} from './urlState';

/**
 * A page's filters, paging and sort in the address bar (see urlState.ts). Changes replace the
 * history entry (typing a filter must not fill Back with every letter); a filter change goes
 * back to page 1. Every list page keeps its state through this hook. `schema` and `shape` must be
 * constants (module level).
 */
export function useUrlState<S extends ParamSchema>(schema: S, shape: ListShape = NO_SHAPE) {
  const [search, setSearch] = useSearchParams();
  const { pathname } = useLocation();
  const leaving = useNavigation().location?.pathname;
  const values = useMemo(() => parseParams(schema, search), [schema, search]);
  const table = useMemo(() => parseTable(search, shape), [search, shape]);
  return useMemo(() => {
    const go = (v: ParamValues<S>, t: TableState) => {
      // A late change (a typed filter's pause ending) after a click that leaves the page would cancel
      // that navigation while it loads, or land on the next page's address once it is done (the
      // router shows the old page until the new one renders): the page's own changes stop there.
      if ((leaving !== undefined && leaving !== pathname) || window.location.pathname !== pathname) return;
      setSearch(toSearch(v, t, shape), { replace: true });
    };
    return {
      values,
      table,
      /** The filters that are set, for exports and calls without paging. */
      filters: filterParams(values),
      /** The paged view's query: filters, Page, Size, SortBy, SortDescending. */
      params: viewParams(values, table, shape),
      /** The paged view's query for other filters (a count of what "select all" would take). */
      paramsFor: (v: ParamValues<S>, t: TableState = table) => viewParams(v, t, shape),
      /** The address-bar form of this state, for a link to another list with the same filters. */
      search: (t: TableState = { ...table, page: 1 }) => toSearch(values, t, shape),
      setFilters: (patch: ParamValues<S>) => go(withFilters(values, patch), { ...table, page: 1 }),
      clearFilters: () => go({}, { ...table, page: 1 }),
      setPage: (page: number) => go(values, { ...table, page }),
      setSize: (size: number) => go(values, { ...table, size, page: 1 }),
      /** Header click; `current` is the sort in force when the address bar names none. */
      sort: (column: string, current: TableState = table) => go(values, toggleSort(current, column, shape)),
      /**
       * DataTable's sort and paging props for a list query's `result`. `shown` is the sort in force
       * when the address bar names none; `reset` runs before any change (a selection or opened rows
       * belong to the rows in view).
       */
      pagedTable: (result: PagedResult, { shown = table, reset }: { shown?: TableState; reset?: () => void } = {}) => {
        const change = (t: TableState) => {
          reset?.();
          go(values, t);
        };
        return {
          sort: shown,
          onSort: (column: string) => change(toggleSort(shown, column, shape)),
          paging: {
            page: table.page,
            size: table.size,
            totalCount: result.data?.totalCount ?? 0,
            totalCountIsExact: result.data?.totalCountIsExact,
            sizes: shape.sizes ?? PAGE_SIZES,
          },
          onPage: (page: number) => change({ ...table, page }),
          onSize: (size: number) => change({ ...table, size, page: 1 }),
          loading: result.isLoading,
          fetching: result.isFetching && !result.isLoading,
        };
      },
    };
  }, [values, table, setSearch, shape, pathname, leaving]);
}

const NO_SHAPE: ListShape = {};

/** What `pagedTable` reads of a list query (RTK Query's result). */
interface PagedResult {
  data?: { totalCount: number; totalCountIsExact?: boolean };
  isLoading: boolean;
  isFetching: boolean;
}
