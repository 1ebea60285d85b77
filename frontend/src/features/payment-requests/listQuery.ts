import { sumCents } from '../../components/money';

// The filters, paging and sorting of both request lists (/ and /payment-requests/details),
// kept in the address bar under the PascalCase names GET /payment-requests takes (Back,
// reload and shared links show the same list). Sorting maps to the server's three Is…SortedAscending flags.

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

/** Sortable column id -> the server's flag. */
export const SORT_FLAGS = {
  submittedOn: 'IsSubmittedOnSortedAscending',
  placementEndDate: 'IsPlacementEndDateSortedAscending',
  approvedAmount: 'IsApprovedAmountSortedAscending',
} as const;
export type SortColumn = keyof typeof SORT_FLAGS;

export interface RequestListState {
  mentorProgramId?: number;
  formStatus: string[];
  formType: string[];
  participationId?: number;
  approvedStart?: string;
  approvedEnd?: string;
  placementEndDate?: string;
  page: number;
  size: number;
  sortBy?: SortColumn;
  sortDescending: boolean;
}

const positive = (v: string | null) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : undefined;
};
const date = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
const list = (p: URLSearchParams, key: string) =>
  p
    .getAll(key)
    .flatMap((v) => v.split(','))
    .filter(Boolean);

export function parseRequestListState(p: URLSearchParams): RequestListState {
  let sortBy: SortColumn | undefined;
  let sortDescending = false;
  for (const [column, flag] of Object.entries(SORT_FLAGS) as [SortColumn, string][]) {
    const v = p.get(flag);
    if (v === 'true' || v === 'false') {
      sortBy = column;
      sortDescending = v === 'false';
      break;
    }
  }
  const size = positive(p.get('Size'));
  return {
    mentorProgramId: positive(p.get('MentorProgramId')),
    formStatus: list(p, 'FormStatus'),
    formType: list(p, 'FormType'),
    participationId: positive(p.get('ParticipationId')),
    approvedStart: date(p.get('ApprovedStart')),
    approvedEnd: date(p.get('ApprovedEnd')),
    placementEndDate: date(p.get('PlacementEndDate')),
    page: positive(p.get('Page')) ?? 1,
    size: size && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    sortBy,
    sortDescending,
  };
}

/** The query of GET /payment-requests (and of the address bar): only what is set. */
export function requestListParams(s: RequestListState): Record<string, string> {
  const out: Record<string, string> = {};
  if (s.mentorProgramId) out.MentorProgramId = String(s.mentorProgramId);
  if (s.formStatus.length) out.FormStatus = s.formStatus.join(',');
  if (s.formType.length) out.FormType = s.formType.join(',');
  if (s.participationId) out.ParticipationId = String(s.participationId);
  if (s.approvedStart) out.ApprovedStart = s.approvedStart;
  if (s.approvedEnd) out.ApprovedEnd = s.approvedEnd;
  if (s.placementEndDate) out.PlacementEndDate = s.placementEndDate;
  if (s.sortBy) out[SORT_FLAGS[s.sortBy]] = String(!s.sortDescending);
  out.Page = String(s.page);
  out.Size = String(s.size);
  return out;
}

/** Header click: unsorted -> ascending -> descending -> unsorted (server default order). */
export function toggleRequestSort(s: RequestListState, column: string): RequestListState {
  if (!(column in SORT_FLAGS)) return s;
  const col = column as SortColumn;
  if (s.sortBy !== col) return { ...s, sortBy: col, sortDescending: false, page: 1 };
  if (!s.sortDescending) return { ...s, sortDescending: true, page: 1 };
  return { ...s, sortBy: undefined, sortDescending: false, page: 1 };
}

/** A filter change goes back to page 1. */
export function withRequestFilters(s: RequestListState, patch: Partial<RequestListState>): RequestListState {
  return { ...s, ...patch, page: 1 };
}

/** Every filter off; paging size and sorting stay. */
export function clearRequestFilters(s: RequestListState): RequestListState {
  return { ...s, mentorProgramId: undefined, formStatus: [], formType: [], participationId: undefined, approvedStart: undefined, approvedEnd: undefined, placementEndDate: undefined, page: 1 };
}

/** Whether any filter is set (the details list offers to clear them). */
export const hasRequestFilters = (s: RequestListState) =>
  JSON.stringify(requestListParams(clearRequestFilters(s))) !== JSON.stringify(requestListParams({ ...s, page: 1 }));

/** Sums of one page's amounts, in integer cents (unapproved rows add nothing to the approved sum). */
export function pageTotalsCents(rows: { requestedAmount: number; approvedAmount: number | null }[]): { requested: number; approved: number } {
  return { requested: sumCents(rows.map((r) => r.requestedAmount)), approved: sumCents(rows.map((r) => r.approvedAmount)) };
}
