import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

export type LoginRequest = Schemas['LoginRequest'];
export type LoginResponse = Schemas['LoginResponse'];
export type ResetTokenRequest = Schemas['ValidateResetTokenRequest'];

// These pages show their errors inline, so they are `quiet` (no toast).
const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/identity/login', method: 'POST', body }),
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

export const { useLoginMutation, useResetPasswordMutation, useValidateResetTokenQuery, useSetPasswordMutation } =
  authApi;
