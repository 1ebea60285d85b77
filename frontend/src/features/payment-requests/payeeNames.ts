import { useMemo } from 'react';
import { useGetPayeesQuery } from './api';

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
