import { api } from '../../../api/api';
import type { Schemas } from '../../../api/wire';

// Out of office: the window a person is away and who stands in for her, her own (the user
// menu) or, for an administrator, anyone's (the user dialog).

export type PersonRef = Schemas['UserRefDto'];
export type OutOfOffice = Schemas['OutOfOfficeDto'];
/** While the picker is empty the stand-in is null; the server's body needs one. */
export type OutOfOfficeBody = Omit<Schemas['OutOfOfficeRequest'], 'standInUserId'> & { standInUserId: number | null };

/** Whose window: the caller's own, or user `id`'s. */
export type Whose = 'me' | number;
const path = (whose: Whose) => (whose === 'me' ? '/identity/me/out-of-office' : `/identity/users/${whose}/out-of-office`);
const tag = (whose: Whose) => [{ type: 'OutOfOffice' as const, id: String(whose) }];

const outOfOfficeApi = api.enhanceEndpoints({ addTagTypes: ['OutOfOffice'] }).injectEndpoints({
  endpoints: (build) => ({
    // None set is a 404: answered as null, not as an error.
    getOutOfOffice: build.query<OutOfOffice | null, Whose>({
      query: (whose) => ({
        url: path(whose),
        validateStatus: (response) => response.ok || response.status === 404,
        responseHandler: async (response) => (response.status === 404 ? null : response.json()),
      }),
      providesTags: (_r, _e, whose) => tag(whose),
    }),
    setOutOfOffice: build.mutation<OutOfOffice, { whose: Whose; body: OutOfOfficeBody }>({
      query: ({ whose, body }) => ({ url: path(whose), method: 'PUT', body }),
      invalidatesTags: (_r, error, { whose }) => (error ? [] : tag(whose)),
      extraOptions: { quiet: true },
    }),
    removeOutOfOffice: build.mutation<void, Whose>({
      query: (whose) => ({ url: path(whose), method: 'DELETE' }),
      invalidatesTags: (_r, error, whose) => (error ? [] : tag(whose)),
      extraOptions: { quiet: true },
    }),
    // Active users who may approve, for the stand-in picker (at most 20 per search).
    standInCandidates: build.query<PersonRef[], string>({
      query: (search) => ({ url: '/identity/users/stand-in-candidates', params: search ? { Search: search } : undefined }),
      extraOptions: { quiet: true },
    }),
  }),
});

export const { useGetOutOfOfficeQuery, useSetOutOfOfficeMutation, useRemoveOutOfOfficeMutation, useStandInCandidatesQuery } = outOfOfficeApi;
