import type { ApproveBody, ValidationResult } from './api';

// The approve screen's check, as pure rules (approvalCheck.test.ts).

/** The wait after the last change before the check is asked: typing an amount asks once. */
export const CHECK_DELAY_MS = 350;

/** What a check was asked for, to tell a current answer from a stale one ('' when incomplete). */
export function checkKey(body: ApproveBody | null): string {
  if (!body) return '';
  return [body.approvedAmount, body.approvalCodeId, body.fundId, body.expenseAccountId].join('|');
}

/** Whether Approve must wait: it needs the right, every field, a current check without errors,
 * and its warnings acknowledged. */
export function approveBlocked({
  canApprove,
  complete,
  checked,
  acknowledged,
}: {
  canApprove: boolean;
  complete: boolean;
  checked: ValidationResult | null;
  acknowledged: boolean;
}): boolean {
  if (!canApprove || !complete || !checked) return true;
  if (checked.errors.length > 0) return true;
  return checked.warnings.length > 0 && !acknowledged;
}
