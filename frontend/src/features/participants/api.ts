import { api } from '../../api/api';
import type { Page, Schemas, Unchecked } from '../../api/wire';

// Wire shapes of the participants area (the server's OpenAPI
// document at /api/v1/openapi.json is the source of truth).


export type Participation = Schemas['ParticipationDto'];
export type Participant = Schemas['ParticipantDto'];
/** A list row: GET /participants pages full participants. */
export type ParticipantRow = Participant;
/** POST / PUT body as the form sends it (PUT adds `version`; POST may carry first participations). */
export type ParticipationBody = Unchecked<Schemas['ParticipationBody'], 'roleCode'>;
/** What an import did, or on a dry run would do, row by row. */
export type ImportReport = Schemas['ImportReport'];
export type ImportItem = Schemas['ImportItem'];
export type ParticipantBody = Unchecked<Omit<Schemas['ParticipantBody'], 'participations'>, 'status' | 'roleCode' | 'districtSetType'> & {
  participations?: ParticipationBody[] | null;
};

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
    createParticipantLogin: build.mutation<Schemas['InvitedUser'], { id: number; password?: string }>({
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
    // A dry run reports what each row would do and writes nothing; a real run writes every row
    // or none (a 422 carrying the same report when any row is in error).
    importParticipants: build.mutation<ImportReport, { file: File; dryRun: boolean }>({
      query: ({ file, dryRun }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/participants/import', method: 'POST', params: { DryRun: dryRun }, body };
      },
      extraOptions: quiet,
      invalidatesTags: (result) => (result && !result.dryRun ? ['Participant', 'ParticipantList'] : []),
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
  useImportParticipantsMutation,
} = participantsApi;
