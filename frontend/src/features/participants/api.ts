import { api } from '../../api/api';
import type { Page, Schemas } from '../../api/wire';

// Wire shapes of the participants area (DESIGN §3/§5; the server's OpenAPI
// document at /api/v1/openapi.json is the source of truth).



export type FiscalYear = Schemas['FiscalYearDto'];

export interface Participation {
  id: number;
  participantId?: number;
  mentorProgramId: number;
  fiscalYearId: number;
  roleCode: string;
  collegeId: number | null;
  startDate: string;
  endDate: string | null;
}

export interface Participant {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  phone: string | null;
  address: string | null;
  status: string;
  roleCode: string;
  districtSetType: string | null;
  districtId: number | null;
  caucusRegionId: number | null;
  workplaceSettingIds: number[];
  languageIds: number[];
  educationLevelIds: number[];
  permitLevelIds: number[];
  version: number;
  participations?: Participation[];
  /** Whether a sign-in (identity user) is linked to this participant. */
  hasLogin?: boolean;
  identityUserId?: number | null;
  createdAt?: string;
  updatedAt?: string;
}

/** A list row: the server may send a lighter shape than the full participant. */
export type ParticipantRow = Pick<Participant, 'id' | 'fullName' | 'email' | 'status' | 'roleCode'> &
  Partial<Pick<Participant, 'firstName' | 'lastName' | 'districtSetType' | 'districtId' | 'updatedAt'>>;

/** POST / PUT body (PUT adds `version`). */
export interface ParticipantBody {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  address: string | null;
  status: string;
  roleCode: string;
  districtSetType: string | null;
  districtId: number | null;
  caucusRegionId: number | null;
  workplaceSettingIds: number[];
  languageIds: number[];
  educationLevelIds: number[];
  permitLevelIds: number[];
  /** POST only: participations created with the participant. */
  participations?: ParticipationBody[];
  /** PUT only (required there): the version the edit is based on. */
  version?: number;
}

export interface ParticipationBody {
  mentorProgramId: number;
  fiscalYearId: number;
  roleCode: string;
  collegeId: number | null;
  startDate: string;
  endDate: string | null;
}

const quiet = { quiet: true };

const withTags = api.enhanceEndpoints({ addTagTypes: ['Participant', 'ParticipantList'] });

export const participantsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    // The list's query under GET /participants' own names (useUrlState's `params`).
    getParticipants: build.query<Page<ParticipantRow>, Record<string, string>>({
      query: (params) => ({ url: '/participants', params }),
      providesTags: ['ParticipantList'],
    }),
    getParticipant: build.query<Participant, number>({
      query: (id) => `/participants/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Participant', id }],
    }),
    createParticipant: build.mutation<Participant, ParticipantBody>({
      query: (body) => ({ url: '/participants', method: 'POST', body }),
      extraOptions: quiet,
      invalidatesTags: ['ParticipantList'],
    }),
    updateParticipant: build.mutation<Participant, { id: number; body: ParticipantBody }>({
      query: ({ id, body }) => ({ url: `/participants/${id}`, method: 'PUT', body }),
      extraOptions: quiet,
      invalidatesTags: (_result, error, { id }) =>
        // A conflict leaves the cached copy alone: the user decides when to reload.
        error?.status === 409 ? [] : [{ type: 'Participant', id }, 'ParticipantList'],
    }),
    deleteParticipant: build.mutation<void, number>({
      query: (id) => ({ url: `/participants/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ParticipantList'],
    }),
    createParticipantLogin: build.mutation<unknown, { id: number; password?: string }>({
      query: ({ id, password }) => ({
        url: `/participants/${id}/identity-user`,
        method: 'POST',
        body: password ? { password } : {},
      }),
      extraOptions: quiet,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Participant', id }],
    }),
    createParticipation: build.mutation<Participation, { participantId: number; body: ParticipationBody }>({
      query: ({ participantId, body }) => ({ url: `/participants/${participantId}/participations`, method: 'POST', body }),
      extraOptions: quiet,
      invalidatesTags: (_result, _error, { participantId }) => [{ type: 'Participant', id: participantId }, 'ParticipantList'],
    }),
    updateParticipation: build.mutation<Participation, { participantId: number; id: number; body: ParticipationBody }>({
      query: ({ participantId, id, body }) => ({ url: `/participants/${participantId}/participations/${id}`, method: 'PUT', body }),
      extraOptions: quiet,
      invalidatesTags: (_result, _error, { participantId }) => [{ type: 'Participant', id: participantId }, 'ParticipantList'],
    }),
    deleteParticipation: build.mutation<void, { participantId: number; id: number }>({
      query: ({ participantId, id }) => ({ url: `/participants/${participantId}/participations/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { participantId }) => [{ type: 'Participant', id: participantId }, 'ParticipantList'],
    }),

    // Enumerations and reference lists that fill the pickers.
    // SPEC §7 spells the path "distric-types".
    getParticipationFiscalYears: build.query<FiscalYear[], void>({
      query: () => '/system-settings/fiscal-years',
      extraOptions: quiet,
    }),
  }),
});

export const {
  useGetParticipantsQuery,
  useGetParticipantQuery,
  useCreateParticipantMutation,
  useUpdateParticipantMutation,
  useDeleteParticipantMutation,
  useCreateParticipantLoginMutation,
  useCreateParticipationMutation,
  useUpdateParticipationMutation,
  useDeleteParticipationMutation,
  useGetParticipationFiscalYearsQuery,
} = participantsApi;
