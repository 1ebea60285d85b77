import { toCents } from '../../components/money';
import type { PaymentRequest, WriteBody } from './api';
import { emptyGeneric, FORM_SPECS, genericDetails, genericValuesOf, type GenericValues } from './genericForms';

// The forms the UI edits (F1 and F3 by their own fields, the others from FORM_SPECS), their
// empty values, the body they send, and the live amount of the forms whose amount the server
// computes. Pure: tested in forms.test.ts.

/** Every form type the UI has an editor for: all fourteen. */
export const SUPPORTED_FORMS = ['F1', 'F3', ...Object.keys(FORM_SPECS)];

/** Forms whose requested amount the requester types (the server computes the others'). */
export const isEntered = (formType: string) => formType === 'F1' || FORM_SPECS[formType]?.entered === true;

export interface Trip {
  date: string;
  from: string;
  to: string;
  miles: number | '';
}

export interface F1Values {
  collegeId: string | null;
  menteeName: string;
  courseCode: string;
  placementStartDate: string;
  placementEndDate: string;
  hours: number | '';
}

export interface F3Values {
  travelPurposeId: string | null;
  transitTypeId: string | null;
  trips: Trip[];
}

export interface RequestValues {
  /** Narrows the payee list; the server takes the program from the participation. */
  mentorProgramId: string | null;
  participationId: number | '';
  description: string;
  /** Entered forms only (F1 here); the server computes F3's. */
  requestedAmount: number | '';
  f1: F1Values;
  f3: F3Values;
  /** Details of the generically rendered forms (F2, F4–F14). */
  other: GenericValues;
}

export const emptyTrip = (): Trip => ({ date: '', from: '', to: '', miles: '' });

export function emptyValues(formType = ''): RequestValues {
  return {
    mentorProgramId: null,
    participationId: '',
    description: '',
    requestedAmount: '',
    f1: { collegeId: null, menteeName: '', courseCode: '', placementStartDate: '', placementEndDate: '', hours: '' },
    f3: { travelPurposeId: null, transitTypeId: null, trips: [emptyTrip()] },
    other: emptyGeneric(formType),
  };
}

const str = (v: unknown) => (v == null ? '' : String(v));
const num = (v: unknown): number | '' => (typeof v === 'number' ? v : v == null || v === '' ? '' : Number(v));
const id = (v: unknown) => (v == null ? null : String(v));

/** The values of a stored request, for edit / view / approve. */
export function valuesOf(r: PaymentRequest): RequestValues {
  const v = emptyValues(r.formType);
  const d = r.details as Record<string, unknown>;
  if (FORM_SPECS[r.formType]) v.other = genericValuesOf(r.formType, d);
  v.participationId = r.participationId;
  v.mentorProgramId = String(r.mentorProgramId);
  v.description = r.description ?? '';
  v.requestedAmount = r.requestedAmount;
  if (r.formType === 'F1') {
    v.f1 = {
      collegeId: id(d.collegeId),
      menteeName: str(d.menteeName),
      courseCode: str(d.courseCode),
      placementStartDate: str(d.placementStartDate),
      placementEndDate: str(d.placementEndDate),
      hours: num(d.hours),
    };
  }
  if (r.formType === 'F3') {
    const trips = Array.isArray(d.trips) ? (d.trips as Record<string, unknown>[]) : [];
    v.f3 = {
      travelPurposeId: id(d.travelPurposeId),
      transitTypeId: id(d.transitTypeId),
      trips: trips.map((t) => ({ date: str(t.date), from: str(t.from), to: str(t.to), miles: num(t.miles) })),
    };
  }
  return v;
}

// Empty inputs go as null: the server names the missing field (details.hours) instead of
// the UI guessing its rules.
const orNull = <T,>(v: T | '') => (v === '' ? null : v);
const idOrNull = (v: string | null) => (v ? Number(v) : null);

/** POST / PUT body of the form. */
export function bodyOf(formType: string, v: RequestValues, version?: number): WriteBody {
  let details: Record<string, unknown> = {};
  if (formType === 'F1') {
    details = {
      collegeId: idOrNull(v.f1.collegeId),
      menteeName: v.f1.menteeName,
      courseCode: v.f1.courseCode,
      placementStartDate: orNull(v.f1.placementStartDate),
      placementEndDate: orNull(v.f1.placementEndDate),
      hours: orNull(v.f1.hours),
    };
  } else if (formType === 'F3') {
    details = {
      travelPurposeId: idOrNull(v.f3.travelPurposeId),
      transitTypeId: idOrNull(v.f3.transitTypeId),
      trips: v.f3.trips.map((t) => ({ date: orNull(t.date), from: t.from, to: t.to, miles: orNull(t.miles) })),
    };
  } else if (FORM_SPECS[formType]) {
    details = genericDetails(formType, v.other);
  }
  const body: WriteBody = {
    participationId: v.participationId === '' ? 0 : v.participationId,
    description: v.description.trim() || null,
    details,
  };
  if (isEntered(formType)) body.requestedAmount = orNull(v.requestedAmount);
  if (version !== undefined) body.version = version;
  return body;
}

/** F3: miles × rate, rounded to the cent half away from zero, as the server does. */
export function mileageCents(trips: Trip[], rate: number | undefined): number {
  if (rate === undefined) return 0;
  const hundredths = trips.reduce((sum, t) => sum + Math.max(0, toCents(t.miles === '' ? 0 : t.miles)), 0);
  return Math.round((toCents(rate) * hundredths) / 100);
}
