import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

export type LoginRequest = Schemas['LoginRequest'];
export type LoginResponse = Schemas['LoginResponse'];
export type ResetTokenRequest = Schemas['ValidateResetTokenRequest'];
export type SsoStatus = Schemas['SsoStatus'];

// These pages show their errors inline, so they are `quiet` (no toast).
const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/identity/login', method: 'POST', body }),
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
  useResetPasswordMutation,
  useValidateResetTokenQuery,
  useSetPasswordMutation,
  useSsoStatusQuery,
  useSsoExchangeMutation,
} = authApi;
