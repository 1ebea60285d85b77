import type { ListShape, ParamSchema, ParamValues } from '../../components/urlState';
import { sumCents } from '../../components/money';

// The filters of both request lists (/ and /payment-requests/details) under the PascalCase names
// GET /payment-requests takes; the pages keep them, with paging and sorting, in the address bar
// through useUrlState (Back, reload and shared links show the same list).

export const REQUEST_FILTERS = {
  MentorProgramId: 'id',
  ParticipationId: 'id',
  FormStatus: 'list',
  FormType: 'list',
  ApprovedStart: 'date',
  ApprovedEnd: 'date',
  PlacementEndDate: 'date',
  // The fiscal year the requests are charged to (links from closing a year).
  FiscalYearId: 'id',
  // "true" or absent: the requests whose current approval step the caller may take.
  WaitingForMe: 'code',
} as const satisfies ParamSchema;

export type RequestFilterValues = ParamValues<typeof REQUEST_FILTERS>;

/** The server sorts by three Is…SortedAscending flags, one per sortable column. */
export const REQUEST_LIST_SHAPE: ListShape = {
  sortFlags: {
    submittedOn: 'IsSubmittedOnSortedAscending',
    placementEndDate: 'IsPlacementEndDateSortedAscending',
    approvedAmount: 'IsApprovedAmountSortedAscending',
  },
};

/** Sums of one page's amounts, in integer cents (unapproved rows add nothing to the approved sum). */
export function pageTotalsCents(rows: { requestedAmount: number; approvedAmount?: number | null }[]): { requested: number; approved: number } {
  return { requested: sumCents(rows.map((r) => r.requestedAmount)), approved: sumCents(rows.map((r) => r.approvedAmount)) };
}
