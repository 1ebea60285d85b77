import { useMemo } from 'react';
import { inactiveMark } from '../../components/statusMark';
import { useGetPayeesQuery, type PayeeOption } from './api';
import type { RefItem } from '../../api/wire';

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

/** `DirectorMentor` -> `director mentor`: roles in words, not codes. */
export const roleWords = (code: string) => code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * A payee as every picker shows it: name, role in words, the e-mail when asked (to tell
 * namesakes apart), and a mark when the participant is not active (inactive or pending),
 * so nobody pays an inactive participant unawares.
 */
export function payeeLabel(p: Pick<PayeeOption, 'fullName' | 'roleCode' | 'email' | 'status'>, withEmail = false): string {
  const facts = [roleWords(p.roleCode), ...(withEmail ? [p.email] : [])].join(', ');
  return `${p.fullName} (${facts})${inactiveMark(p.status)}`;
}
