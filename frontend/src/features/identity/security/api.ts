import { api } from '../../../api/api';
import type { Schemas } from '../../../api/wire';

// The caller's second factor and sign-ins (the user menu), and an administrator's help on
// someone else's account (the user dialog).

export type MfaStatus = Schemas['MfaStatusDto'];
export type TotpEnrolment = Schemas['TotpEnrolment'];
export type Session = Schemas['SessionDto'];
export type Passkey = Schemas['PasskeyDto'];

const securityApi = api.enhanceEndpoints({ addTagTypes: ['MyFactors', 'MySessions', 'MyPasskeys'] }).injectEndpoints({
  endpoints: (build) => ({
    getMyFactors: build.query<MfaStatus, void>({
      query: () => '/identity/me/mfa',
      providesTags: ['MyFactors'],
    }),
    startTotp: build.mutation<TotpEnrolment, void>({
      query: () => ({ url: '/identity/me/mfa/totp', method: 'POST' }),
      extraOptions: { quiet: true },
    }),
    confirmTotp: build.mutation<Schemas['RecoveryCodesDto'], { code: string }>({
      query: (body) => ({ url: '/identity/me/mfa/totp/confirm', method: 'POST', body }),
      // Setting one up ends the other sign-ins.
      invalidatesTags: (result) => (result ? ['MyFactors', 'MySessions'] : []),
      extraOptions: { quiet: true },
    }),
    removeTotp: build.mutation<void, { code: string }>({
      query: (body) => ({ url: '/identity/me/mfa/totp', method: 'DELETE', body }),
      invalidatesTags: (_, error) => (error ? [] : ['MyFactors', 'MySessions']),
      extraOptions: { quiet: true },
    }),
    getMyPasskeys: build.query<Passkey[], void>({
      query: () => '/identity/me/passkeys',
      providesTags: ['MyPasskeys'],
    }),
    startPasskeyRegistration: build.mutation<Schemas['PasskeyOptions'], void>({
      query: () => ({ url: '/identity/me/passkeys/register/start', method: 'POST' }),
      extraOptions: { quiet: true },
    }),
    // Adding or removing one ends the other sign-ins.
    finishPasskeyRegistration: build.mutation<Schemas['PasskeyRegistered'], { name: string; credential: Record<string, unknown> }>({
      query: (body) => ({ url: '/identity/me/passkeys/register/finish', method: 'POST', body }),
      invalidatesTags: (_, error) => (error ? [] : ['MyPasskeys', 'MyFactors', 'MySessions']),
      extraOptions: { quiet: true },
    }),
    removePasskey: build.mutation<void, { id: number; password: string }>({
      query: ({ id, password }) => ({ url: `/identity/me/passkeys/${id}`, method: 'DELETE', body: { password } }),
      invalidatesTags: (_, error) => (error ? [] : ['MyPasskeys', 'MyFactors', 'MySessions']),
      extraOptions: { quiet: true },
    }),
    getMySessions: build.query<Session[], void>({
      query: () => '/identity/me/sessions',
      providesTags: ['MySessions'],
    }),
    endSession: build.mutation<void, string>({
      query: (id) => ({ url: `/identity/me/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['MySessions'],
    }),
    endOtherSessions: build.mutation<void, void>({
      query: () => ({ url: '/identity/me/sessions/end-others', method: 'POST' }),
      invalidatesTags: ['MySessions'],
    }),
    removeUserFactors: build.mutation<void, number>({
      query: (id) => ({ url: `/identity/users/${id}/mfa`, method: 'DELETE' }),
    }),
    endUserSessions: build.mutation<void, number>({
      query: (id) => ({ url: `/identity/users/${id}/sessions`, method: 'DELETE' }),
    }),
  }),
});

export const {
  useGetMyFactorsQuery,
  useStartTotpMutation,
  useConfirmTotpMutation,
  useRemoveTotpMutation,
  useGetMyPasskeysQuery,
  useStartPasskeyRegistrationMutation,
  useFinishPasskeyRegistrationMutation,
  useRemovePasskeyMutation,
  useGetMySessionsQuery,
  useEndSessionMutation,
  useEndOtherSessionsMutation,
  useRemoveUserFactorsMutation,
  useEndUserSessionsMutation,
} = securityApi;
