import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

export type LoginRequest = Schemas['LoginRequest'];
export type LoginResponse = Schemas['LoginResponse'];
/** The tokens, or the second step a sign-in still needs (a code, or enrolling a factor first). */
export type LoginAnswer = Schemas['LoginAnswer'];
export type TotpEnrolment = Schemas['TotpEnrolment'];
export type MfaLogin = { mfaToken: string; code?: string; recoveryCode?: string };
export type ResetTokenRequest = Schemas['ValidateResetTokenRequest'];
export type SsoStatus = Schemas['SsoStatus'];
export type PasskeyOptions = Schemas['PasskeyOptions'];

// These pages show their errors inline, so they are `quiet` (no toast).
const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginAnswer, LoginRequest>({
      query: (body) => ({ url: '/identity/login', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    // The second step: a code of the authenticator app, or a recovery code.
    loginMfa: build.mutation<LoginResponse, MfaLogin>({
      query: (body) => ({ url: '/identity/login/mfa', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    // The second step with a passkey: the challenge, then the browser's answer to it.
    startPasskeyLogin: build.mutation<PasskeyOptions, { mfaToken: string }>({
      query: (body) => ({ url: '/identity/login/passkey/start', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    finishPasskeyLogin: build.mutation<LoginResponse, { mfaToken: string; credential: Record<string, unknown> }>({
      query: (body) => ({ url: '/identity/login/passkey/finish', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    // Enrolment a role's policy asks for before the first sign-in completes.
    enrollTotpAtLogin: build.mutation<TotpEnrolment, { mfaToken: string }>({
      query: (body) => ({ url: '/identity/login/enroll/totp', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    confirmTotpAtLogin: build.mutation<LoginResponse, { mfaToken: string; code: string }>({
      query: (body) => ({ url: '/identity/login/enroll/totp/confirm', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    // Whether the login page offers the agency's sign-in (anonymous).
    ssoStatus: build.query<SsoStatus, void>({
      query: () => ({ url: '/identity/sso' }),
      extraOptions: { quiet: true },
    }),
    // The one-time code of `#sso=` for the body of a sign-in.
    ssoExchange: build.mutation<LoginResponse, { code: string }>({
      query: (body) => ({ url: '/identity/sso/exchange', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    resetPassword: build.mutation<void, { email: string }>({
      query: (body) => ({ url: '/identity/user/reset-password', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
    // A POST, but it only reads: a query, so the page can render its states.
    validateResetToken: build.query<void, ResetTokenRequest>({
      query: (body) => ({ url: '/identity/reset-token/validate', method: 'POST', body }),
    }),
    setPassword: build.mutation<void, ResetTokenRequest & { password: string }>({
      query: (body) => ({ url: '/identity/user/set-password', method: 'POST', body }),
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginMfaMutation,
  useStartPasskeyLoginMutation,
  useFinishPasskeyLoginMutation,
  useEnrollTotpAtLoginMutation,
  useConfirmTotpAtLoginMutation,
  useResetPasswordMutation,
  useValidateResetTokenQuery,
  useSetPasswordMutation,
  useSsoStatusQuery,
  useSsoExchangeMutation,
} = authApi;
