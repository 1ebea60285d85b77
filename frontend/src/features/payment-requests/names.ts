import { useMemo } from 'react';
import { useGetPayeesQuery, type RefItem } from './api';

// Names for the ids a list row carries, shared by the request list and the details list.

/**
 * The names of the payees of one page of requests, in one call
 * (GET /payment-requests/participant-list?ParticipationIds=…, deleted payees included).
 */
export function usePayeeNames(rows: { participationId: number }[] | undefined): Map<number, string> {
  // Sorted, so the same page asks with the same cache key.
  const ids = [...new Set((rows ?? []).map((r) => r.participationId))].sort((a, b) => a - b);
  const payees = useGetPayeesQuery({ participationIds: ids }, { skip: ids.length === 0 });
  return useMemo(() => new Map((payees.data ?? []).map((p) => [p.participationId, p.fullName])), [payees.data]);
}

/** `F2` -> `Expense reimbursement` (GET /payment-requests/types), the code until the list is there. */
export const formTypeName = (types: RefItem[] | undefined, code: string) => types?.find((t) => t.code === code)?.name ?? code;
