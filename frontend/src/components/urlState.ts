// Filters, paging and sorting of a server-paged page, kept in the address bar under the API's
// own PascalCase parameter names (so Back, reload and a shared link show the same rows, and a
// report can be bookmarked). A page declares its filters once as a schema; everything else
// follows from it. Pure: tested in urlState.test.ts; `useUrlState` is the hook over it.

/** How a filter's text is checked: junk from a hand-edited link is dropped, never sent. */
export type ParamKind = 'id' | 'date' | 'code' | 'int' | 'list' | 'text';
export type ParamSchema = Readonly<Record<string, ParamKind>>;
/** Filter values by parameter name, as strings (what pickers hold); absent: no filter. */
export type ParamValues<S extends ParamSchema> = { [K in keyof S]?: string };

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export interface TableState {
  page: number;
  size: number;
  /** The server's sort key; none: the server's default order. */
  sortBy?: string;
  sortDescending: boolean;
}

export const DEFAULT_TABLE: TableState = { page: 1, size: DEFAULT_PAGE_SIZE, sortDescending: false };

/** How a list pages and sorts on the wire, where it differs from the defaults. */
export interface ListShape {
  sizes?: readonly number[];
  defaultSize?: number;
  /**
   * For an API that sorts by one flag per column (GET /payment-requests' `Is…SortedAscending`)
   * instead of SortBy/SortDescending: column id → flag. A header click then goes ascending →
   * descending → the server's own order.
   */
  sortFlags?: Readonly<Record<string, string>>;
}

const CHECKS: Record<ParamKind, (raw: string) => boolean> = {
  id: (v) => /^[1-9]\d{0,15}$/.test(v),
  int: (v) => /^-?\d{1,9}$/.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  // Wire names of enums and form types: F1, Mentor, DirectorMentor, Csv.
  code: (v) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(v),
  // Comma list of codes or ids, order kept (CustomColumnSetToInclude).
  list: (v) => /^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$/.test(v),
  // Typed search text (a name): printable, a sane length.
  text: (v) => v.length <= 200 && ![...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127),
};

export const isValidParam = (kind: ParamKind, raw: string): boolean => CHECKS[kind](raw);

/** The filters found in `search` (keys matched case-insensitively, as the server does). */
export function parseParams<S extends ParamSchema>(schema: S, search: URLSearchParams): ParamValues<S> {
  const byLower = new Map<string, string>();
  for (const [key, value] of search) if (!byLower.has(key.toLowerCase())) byLower.set(key.toLowerCase(), value);
  const out: ParamValues<S> = {};
  for (const [name, kind] of Object.entries(schema) as [keyof S & string, ParamKind][]) {
    const raw = byLower.get(name.toLowerCase())?.trim();
    if (raw && isValidParam(kind, raw)) out[name] = raw;
  }
  return out;
}

export function parseTable(search: URLSearchParams, { sizes = PAGE_SIZES, defaultSize = DEFAULT_PAGE_SIZE, sortFlags }: ListShape = {}): TableState {
  const page = Number(search.get('Page'));
  const size = Number(search.get('Size'));
  const paging = { page: Number.isSafeInteger(page) && page > 0 ? page : 1, size: sizes.includes(size) ? size : defaultSize };
  if (sortFlags) {
    // The first flag set to true (ascending) or false (descending) names the sorted column.
    for (const [column, flag] of Object.entries(sortFlags)) {
      const v = search.get(flag);
      if (v === 'true' || v === 'false') return { ...paging, sortBy: column, sortDescending: v === 'false' };
    }
    return { ...paging, sortBy: undefined, sortDescending: false };
  }
  const sortBy = search.get('SortBy')?.trim();
  return {
    ...paging,
    sortBy: sortBy && /^[A-Za-z][A-Za-z0-9_]*$/.test(sortBy) ? sortBy : undefined,
    sortDescending: Boolean(sortBy) && search.get('SortDescending') === 'true',
  };
}

/** Only the filters that are set (what the server and the export receive). */
export function filterParams<S extends ParamSchema>(values: ParamValues<S>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string' && value !== '') out[name] = value;
  return out;
}

/** The query of a paged view: filters, then Page, Size and the sort. */
export function viewParams<S extends ParamSchema>(values: ParamValues<S>, table: TableState, { sortFlags }: ListShape = {}): Record<string, string> {
  const out = { ...filterParams(values), Page: String(table.page), Size: String(table.size) };
  if (!table.sortBy) return out;
  if (sortFlags) {
    const flag = sortFlags[table.sortBy];
    return flag ? { ...out, [flag]: String(!table.sortDescending) } : out;
  }
  return { ...out, SortBy: table.sortBy, SortDescending: String(table.sortDescending) };
}

/** The address-bar form: the view's query without its defaults. */
export function toSearch<S extends ParamSchema>(values: ParamValues<S>, table: TableState, shape: ListShape = {}): URLSearchParams {
  const out = viewParams(values, table, shape);
  if (table.page === 1) delete out.Page;
  if (table.size === (shape.defaultSize ?? DEFAULT_PAGE_SIZE)) delete out.Size;
  if (out.SortDescending === 'false') delete out.SortDescending;
  return new URLSearchParams(out);
}

/**
 * Header click, back to page 1: a new column sorts ascending, the same column flips (with sort
 * flags a third click returns to the server's order).
 */
export function toggleSort(table: TableState, column: string, { sortFlags }: ListShape = {}): TableState {
  if (sortFlags && !(column in sortFlags)) return table;
  if (sortFlags && table.sortBy === column && table.sortDescending) return { ...table, sortBy: undefined, sortDescending: false, page: 1 };
  const sortDescending = table.sortBy === column ? !table.sortDescending : false;
  return { ...table, sortBy: column, sortDescending, page: 1 };
}

/** Merges a filter change (undefined or '' clears one); the old page may not exist any more. */
export function withFilters<S extends ParamSchema>(values: ParamValues<S>, patch: ParamValues<S>): ParamValues<S> {
  const next: ParamValues<S> = { ...values };
  for (const [name, value] of Object.entries(patch) as [keyof S, string | undefined][]) {
    if (value === undefined || value === '') delete next[name];
    else next[name] = value;
  }
  return next;
}

export const activeFilterCount = (values: ParamValues<ParamSchema>): number => Object.keys(filterParams(values)).length;

/** A `list` filter's items ("Approved,Submitted" → two), for multi-selects. */
export const listItems = (value: string | undefined): string[] => (value ? value.split(',') : []);
/** Items back into a `list` filter; none clears it. */
export const listValue = (items: readonly (string | number)[]): string | undefined => (items.length ? items.join(',') : undefined);
/** An `id` filter as a number (the kind guarantees digits). */
export const idValue = (value: string | undefined): number | undefined => (value ? Number(value) : undefined);
