import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

// ---- system settings ----

export type GeneralSettings = Schemas['GeneralSettingsDto'];
/** maxMilesPerTrip / maxHours / maxNights are present exactly on the forms they apply to. */
export type FormLimit = Schemas['FormLimitDto'];
type LoginBlock = Schemas['LoginBlockDto'];
export type SecuritySettings = Schemas['SecuritySettingsDto'];
export type SsoSettings = Schemas['SsoSettings'];
/** A banner as the editor holds it: saved ones carry their id, new ones none yet. */
export type Banner = Schemas['BannerInput'];
export type OutboxPage = Schemas['OutboxPage'];
export type OutboxMail = Schemas['OutboxMail'];
export type OutboxStatus = OutboxMail['status'];

/** A form's approval chain: the steps a request above each step's amount goes through. */
export type ApprovalRule = Schemas['ApprovalRuleDto'];
/** `fromAmount` left out is 0. */
export type ApprovalStep = Schemas['RuleStep'];
type TriedRule = Schemas['TriedApprovalRule'];

const SETTINGS_TAGS = ['GeneralSettings', 'FormLimits', 'LoginBlock', 'Banners', 'SsoSettings', 'ApprovalRules', 'SecuritySettings'] as const;

// Editors show their errors inline (fields, conflicts): quiet, no toast.
const systemSettingsApi = api.enhanceEndpoints({ addTagTypes: SETTINGS_TAGS }).injectEndpoints({
  endpoints: (build) => ({
    getGeneralSettings: build.query<GeneralSettings, void>({ query: () => '/system-settings/general', providesTags: ['GeneralSettings'] }),
    updateGeneralSettings: build.mutation<GeneralSettings, GeneralSettings>({
      query: (body) => ({ url: `/system-settings/general/${body.id}`, method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['GeneralSettings']),
      extraOptions: { quiet: true },
    }),
    getFormLimits: build.query<FormLimit[], void>({ query: () => '/system-settings/form-validation-limits', providesTags: ['FormLimits'] }),
    updateFormLimits: build.mutation<FormLimit[], FormLimit[]>({
      query: (body) => ({ url: '/system-settings/form-validation-limits', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['FormLimits']),
      extraOptions: { quiet: true },
    }),
    getApprovalRules: build.query<ApprovalRule[], void>({ query: () => '/system-settings/approval-rules', providesTags: ['ApprovalRules'] }),
    saveApprovalRule: build.mutation<ApprovalRule, ApprovalRule>({
      query: ({ formType, steps }) => ({ url: `/system-settings/approval-rules/${formType}`, method: 'PUT', body: { steps } }),
      invalidatesTags: (_result, error) => (error ? [] : ['ApprovalRules']),
      extraOptions: { quiet: true },
    }),
    // Which of `steps` a request of `amount` would go through: the server's rule, nothing saved.
    tryApprovalRule: build.mutation<TriedRule, ApprovalRule & { amount: number }>({
      query: ({ formType, steps, amount }) => ({ url: `/system-settings/approval-rules/${formType}/try`, method: 'POST', body: { steps, amount } }),
      extraOptions: { quiet: true },
    }),
    getLoginBlock: build.query<LoginBlock, void>({ query: () => '/system-settings/block-coordinator-login', providesTags: ['LoginBlock'] }),
    setLoginBlock: build.mutation<LoginBlock, LoginBlock>({
      query: (body) => ({ url: '/system-settings/block-coordinator-login', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['LoginBlock']),
      extraOptions: { quiet: true },
    }),
    getSecuritySettings: build.query<SecuritySettings, void>({ query: () => '/system-settings/security', providesTags: ['SecuritySettings'] }),
    updateSecuritySettings: build.mutation<SecuritySettings, SecuritySettings>({
      query: (body) => ({ url: '/system-settings/security', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['SecuritySettings']),
      extraOptions: { quiet: true },
    }),
    getSsoSettings: build.query<SsoSettings, void>({ query: () => '/system-settings/sso', providesTags: ['SsoSettings'] }),
    updateSsoSettings: build.mutation<SsoSettings, SsoSettings>({
      query: (body) => ({ url: '/system-settings/sso', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['SsoSettings']),
      extraOptions: { quiet: true },
    }),
    // The mails MentorPay sent or will send, newest first, paged on the server.
    getOutbox: build.query<OutboxPage, Record<string, string>>({ query: (params) => ({ url: '/system-settings/outbox', params }) }),
    getBanners: build.query<Banner[], void>({ query: () => '/system-settings/notification-banners', providesTags: ['Banners'] }),
    replaceBanners: build.mutation<Banner[], Banner[]>({
      query: (body) => ({ url: '/system-settings/notification-banners', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Banners']),
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useGetGeneralSettingsQuery,
  useUpdateGeneralSettingsMutation,
  useGetFormLimitsQuery,
  useUpdateFormLimitsMutation,
  useGetLoginBlockQuery,
  useSetLoginBlockMutation,
  useGetOutboxQuery,
  useGetBannersQuery,
  useReplaceBannersMutation,
  useGetSecuritySettingsQuery,
  useUpdateSecuritySettingsMutation,
  useGetSsoSettingsQuery,
  useUpdateSsoSettingsMutation,
  useGetApprovalRulesQuery,
  useSaveApprovalRuleMutation,
  useTryApprovalRuleMutation,
} = systemSettingsApi;
