import type { Participation, ParticipationBody } from './api';

// A participation's form values (string ids, ISO dates) and their wire body.

export interface ParticipationValues {
  mentorProgramId: string | null;
  fiscalYearId: string | null;
  roleCode: string | null;
  collegeId: string | null;
  /** YYYY-MM-DD */
  startDate: string | null;
  endDate: string | null;
}

export type ParticipationField = keyof ParticipationValues;

export const EMPTY_PARTICIPATION: ParticipationValues = {
  mentorProgramId: null,
  fiscalYearId: null,
  roleCode: null,
  collegeId: null,
  startDate: null,
  endDate: null,
};

/** Every field, in the form's order (the empty values name them all). */
export const PARTICIPATION_FIELDS = Object.keys(EMPTY_PARTICIPATION) as readonly ParticipationField[];

export function participationValues(p: Participation): ParticipationValues {
  return {
    mentorProgramId: String(p.mentorProgramId),
    fiscalYearId: String(p.fiscalYearId),
    roleCode: p.roleCode,
    collegeId: p.collegeId == null ? null : String(p.collegeId),
    startDate: p.startDate,
    endDate: p.endDate ?? null,
  };
}

const id = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : 0);
const date = (value: string | null) => (value ? value.slice(0, 10) : null);

/** Missing required values are sent as they are (0, ''), so the server names the field. */
export function participationBody(values: ParticipationValues): ParticipationBody {
  return {
    mentorProgramId: id(values.mentorProgramId),
    fiscalYearId: id(values.fiscalYearId),
    roleCode: values.roleCode ?? '',
    collegeId: values.collegeId ? id(values.collegeId) : null,
    startDate: date(values.startDate) ?? '',
    endDate: date(values.endDate),
  };
}

/** Server keys of a participation sent inside POST /participants: `participations[0].roleCode`. */
export function nestedParticipationErrors(
  errors: Record<string, string[]> | undefined,
  index = 0,
): Record<string, string[]> | undefined {
  if (!errors) return undefined;
  const prefix = `participations[${index}].`;
  const nested = Object.entries(errors)
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, messages]) => [key.slice(prefix.length), messages] as const);
  return nested.length ? Object.fromEntries(nested) : undefined;
}

/** True when the user filled anything in (an untouched first participation is not sent). */
export function participationStarted(values: ParticipationValues): boolean {
  return PARTICIPATION_FIELDS.some((field) => values[field] !== null && values[field] !== '');
}
