import type { PaymentRequest, WriteBody } from './api';
import { isEntered, type FormRules } from './formRules';
import { emptyGeneric, genericDetails, genericValuesOf, type GenericValues } from './genericForms';

// The values of a request form (the common fields and the typed details), read from a stored
// request and sent as a body. Pure: tested in forms.test.ts.

export interface RequestValues {
  /** Narrows the payee list; the server takes the program from the participation. */
  mentorProgramId: string | null;
  participationId: number | '';
  description: string;
  /** Sent only where the requester types the amount (the form's rules say so). */
  requestedAmount: number | '';
  /** The typed details as the inputs hold them. */
  details: GenericValues;
}

export function emptyValues(formType = '', rules?: FormRules): RequestValues {
  return {
    mentorProgramId: null,
    participationId: '',
    description: '',
    requestedAmount: '',
    details: emptyGeneric(formType, rules),
  };
}

/** The values of a stored request, for edit / view / approve. */
export function valuesOf(r: PaymentRequest, rules?: FormRules): RequestValues {
  return {
    mentorProgramId: String(r.mentorProgramId),
    participationId: r.participationId,
    description: r.description ?? '',
    requestedAmount: r.requestedAmount,
    details: genericValuesOf(r.formType, r.details as Record<string, unknown>, rules),
  };
}

/** POST / PUT body of the form (empty inputs as null: the server names the missing field). */
export function bodyOf(formType: string, v: RequestValues, rules: FormRules | undefined, version?: number): WriteBody {
  const body: WriteBody = {
    participationId: v.participationId === '' ? 0 : v.participationId,
    description: v.description.trim() || null,
    details: genericDetails(formType, v.details, rules),
  };
  if (isEntered(rules)) body.requestedAmount = v.requestedAmount === '' ? null : v.requestedAmount;
  if (version !== undefined) body.version = version;
  return body;
}
