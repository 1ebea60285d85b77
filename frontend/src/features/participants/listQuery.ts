// The participant list's filters, paging and sorting, kept in the address bar
// (so Back, reload and a shared link show the same list) under the same
// PascalCase names GET /participants takes. Pure: tested in listQuery.test.ts.

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export interface ListFilters {
  mentorProgramId?: number;
  roleCode?: string;
  fullName?: string;
  status?: string;
  districtSetType?: string;
  districtId?: number;
  workplaceSettingIds: number[];
  languageIds: number[];
  educationLevelIds: number[];
  permitLevelIds: number[];
}

export interface ListState extends ListFilters {
  page: number;
  size: number;
  sortBy?: string;
  sortDescending: boolean;
}

export const EMPTY_FILTERS: ListFilters = {
  workplaceSettingIds: [],
  languageIds: [],
  educationLevelIds: [],
  permitLevelIds: [],
};

export const DEFAULT_LIST_STATE: ListState = { ...EMPTY_FILTERS, page: 1, size: DEFAULT_PAGE_SIZE, sortDescending: false };

const ID_LISTS = {
  workplaceSettingIds: 'WorkplaceSettingIds',
  languageIds: 'LanguageIds',
  educationLevelIds: 'EducationLevelIds',
  permitLevelIds: 'PermitLevelIds',
} as const satisfies Record<string, string>;
type IdListKey = keyof typeof ID_LISTS;
const ID_LIST_KEYS = Object.keys(ID_LISTS) as IdListKey[];

const STRINGS = {
  roleCode: 'RoleCode',
  fullName: 'FullName',
  status: 'Status',
  districtSetType: 'DistrictSetType',
} as const;
const STRING_KEYS = Object.keys(STRINGS) as (keyof typeof STRINGS)[];

function positiveInt(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Ids from repeated keys and/or comma-separated values; junk is dropped, duplicates too. */
function idList(search: URLSearchParams, key: string): number[] {
  const ids = search
    .getAll(key)
    .flatMap((value) => value.split(','))
    .map(positiveInt)
    .filter((n): n is number => n !== undefined);
  return [...new Set(ids)];
}

export function parseListState(search: URLSearchParams): ListState {
  const state: ListState = {
    ...DEFAULT_LIST_STATE,
    mentorProgramId: positiveInt(search.get('MentorProgramId')),
    districtId: positiveInt(search.get('DistrictId')),
    page: positiveInt(search.get('Page')) ?? 1,
    sortDescending: search.get('SortDescending') === 'true',
  };
  const size = positiveInt(search.get('Size'));
  state.size = size && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
  const sortBy = search.get('SortBy')?.trim();
  if (sortBy) state.sortBy = sortBy;
  for (const key of STRING_KEYS) {
    const value = search.get(STRINGS[key])?.trim();
    if (value) state[key] = value;
  }
  for (const key of ID_LIST_KEYS) state[key] = idList(search, ID_LISTS[key]);
  return state;
}

/**
 * The query parameters of GET /participants: empty filters are left out,
 * id lists are comma-separated (the server also accepts repeated keys).
 */
export function listQueryParams(state: ListState): Record<string, string> {
  const params: Record<string, string> = {};
  if (state.mentorProgramId) params.MentorProgramId = String(state.mentorProgramId);
  for (const key of STRING_KEYS) {
    const value = state[key]?.trim();
    if (value) params[STRINGS[key]] = value;
  }
  if (state.districtId) params.DistrictId = String(state.districtId);
  for (const key of ID_LIST_KEYS) if (state[key].length) params[ID_LISTS[key]] = state[key].join(',');
  params.Page = String(state.page);
  params.Size = String(state.size);
  if (state.sortBy) {
    params.SortBy = state.sortBy;
    params.SortDescending = String(state.sortDescending);
  }
  return params;
}

/** The address-bar form: like the API's, without the defaults. */
export function toSearchParams(state: ListState): URLSearchParams {
  const params = listQueryParams(state);
  if (state.page === 1) delete params.Page;
  if (state.size === DEFAULT_PAGE_SIZE) delete params.Size;
  if (params.SortDescending === 'false') delete params.SortDescending;
  return new URLSearchParams(params);
}

/** A filter change shows the first page again (the old page may not exist any more). */
export function withFilters(state: ListState, patch: Partial<ListFilters>): ListState {
  const next: ListState = { ...state, ...patch, page: 1 };
  // A district number means nothing without its kind.
  if (!next.districtSetType) next.districtId = undefined;
  return next;
}

export function clearFilters(state: ListState): ListState {
  return { ...DEFAULT_LIST_STATE, size: state.size, sortBy: state.sortBy, sortDescending: state.sortDescending };
}

export function activeFilterCount(state: ListFilters): number {
  let count = 0;
  if (state.mentorProgramId) count++;
  for (const key of STRING_KEYS) if (state[key]?.trim()) count++;
  if (state.districtId) count++;
  for (const key of ID_LIST_KEYS) if (state[key].length) count++;
  return count;
}

/** Header click: a new column sorts ascending, the same column flips direction. */
export function toggleSort(state: ListState, column: string): ListState {
  const sortDescending = state.sortBy === column ? !state.sortDescending : false;
  return { ...state, sortBy: column, sortDescending, page: 1 };
}
