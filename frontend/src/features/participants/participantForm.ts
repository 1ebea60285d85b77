import type { Participant, ParticipantBody } from './api';

// The participant form's values (as the inputs hold them: text and string ids)
// and their conversion to and from the wire. Pure: tested in participantForm.test.ts.

export interface ParticipantFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  status: string | null;
  roleCode: string | null;
  districtSetType: string | null;
  districtId: string;
  caucusRegionId: string | null;
  workplaceSettingIds: string[];
  languageIds: string[];
  educationLevelIds: string[];
  permitLevelIds: string[];
}

export type ParticipantField = keyof ParticipantFormValues;

export const EMPTY_PARTICIPANT_VALUES: ParticipantFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: '',
  status: null,
  roleCode: null,
  districtSetType: null,
  districtId: '',
  caucusRegionId: null,
  workplaceSettingIds: [],
  languageIds: [],
  educationLevelIds: [],
  permitLevelIds: [],
};

/** Every field, in the form's order (the empty values name them all). */
export const PARTICIPANT_FIELDS = Object.keys(EMPTY_PARTICIPANT_VALUES) as readonly ParticipantField[];

const ids = (list: number[] | undefined) => (list ?? []).map(String);

export function valuesFromParticipant(p: Participant): ParticipantFormValues {
  return {
    firstName: p.firstName ?? '',
    lastName: p.lastName ?? '',
    email: p.email ?? '',
    phone: p.phone ?? '',
    address: p.address ?? '',
    status: p.status ?? null,
    roleCode: p.roleCode ?? null,
    districtSetType: p.districtSetType ?? null,
    districtId: p.districtId == null ? '' : String(p.districtId),
    caucusRegionId: p.caucusRegionId == null ? null : String(p.caucusRegionId),
    workplaceSettingIds: ids(p.workplaceSettingIds),
    languageIds: ids(p.languageIds),
    educationLevelIds: ids(p.educationLevelIds),
    permitLevelIds: ids(p.permitLevelIds),
  };
}

const textOrNull = (value: string) => (value.trim() === '' ? null : value.trim());
const numbers = (list: string[]) => list.map(Number).filter((n) => Number.isSafeInteger(n));

/** The body of POST/PUT /participants; blank optional text becomes null. */
export function bodyFromValues(values: ParticipantFormValues, version?: number): ParticipantBody {
  const districtId = values.districtId.trim() === '' ? null : Number(values.districtId);
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phone: textOrNull(values.phone),
    address: textOrNull(values.address),
    // Required on the server: an empty value gets its field error back.
    status: values.status ?? '',
    roleCode: values.roleCode ?? '',
    districtSetType: values.districtSetType,
    districtId: values.districtSetType && districtId !== null && Number.isFinite(districtId) ? districtId : null,
    caucusRegionId: values.caucusRegionId ? Number(values.caucusRegionId) : null,
    workplaceSettingIds: numbers(values.workplaceSettingIds),
    languageIds: numbers(values.languageIds),
    educationLevelIds: numbers(values.educationLevelIds),
    permitLevelIds: numbers(values.permitLevelIds),
    ...(version === undefined ? {} : { version }),
  };
}

function sameSet(a: string[], b: string[]) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Changed compared with what was loaded; id lists compare as sets, text ignores outer spaces. */
export function isDirty(initial: ParticipantFormValues, current: ParticipantFormValues): boolean {
  return PARTICIPANT_FIELDS.some((field) => {
    const a = initial[field];
    const b = current[field];
    if (Array.isArray(a) && Array.isArray(b)) return !sameSet(a, b);
    if (typeof a === 'string' && typeof b === 'string') return a.trim() !== b.trim();
    return (a ?? null) !== (b ?? null);
  });
}

/** A rough shape only (the server decides): something, an @, something with a dot. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What the browser can see is missing before anything is sent: every problem at once, in
 * sentences that name their field (the server checks the rest, all at once too).
 */
export function checkParticipant(values: ParticipantFormValues): Partial<Record<ParticipantField, string>> {
  const out: Partial<Record<ParticipantField, string>> = {};
  if (!values.firstName.trim()) out.firstName = 'Enter the first name';
  if (!values.lastName.trim()) out.lastName = 'Enter the last name';
  if (!values.email.trim()) out.email = 'Enter the e-mail address';
  else if (!EMAIL_SHAPE.test(values.email.trim())) out.email = 'Enter an e-mail address like name@example.org';
  if (!values.status) out.status = 'Choose the status';
  if (!values.roleCode) out.roleCode = 'Choose the role';
  if (values.districtSetType && !values.districtId.trim()) out.districtId = 'Enter the district number';
  return out;
}
