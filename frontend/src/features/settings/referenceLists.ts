import type { PermissionCode } from '../../lib/permissions';
import { api } from '../../api/api';

// The reference lists an office keeps itself (POSTs, and a PUT to
// rename and deactivate: docs/decisions-reference.md). Described once; the page draws any.

export interface RefEntry {
  id: number;
  name: string;
  code?: string;
  isActive: boolean;
  paymentRequestType?: string;
}

export interface RefListSpec {
  /** Address segment: /settings/reference/{slug}, and the API path /{slug}. */
  slug: 'funds' | 'expense-accounts' | 'mentor-programs' | 'approval-codes';
  title: string;
  /** One item, in a sentence ("a fund"). */
  noun: string;
  /** None: every signed-in user reads it. */
  read?: PermissionCode;
  create: PermissionCode;
  colleges?: boolean;
  formType?: boolean;
}

export const REFERENCE_LISTS: RefListSpec[] = [
  { slug: 'funds', title: 'Funds', noun: 'fund', read: 'fund:read', create: 'fund:create' },
  { slug: 'expense-accounts', title: 'Expense accounts', noun: 'expense account', read: 'expenseaccount:read', create: 'expenseaccount:create' },
  { slug: 'mentor-programs', title: 'Mentor programs', noun: 'mentor program', read: 'mentorprogram:read', create: 'mentorprogram:create', colleges: true },
  // Approval codes are read by every signed-in user; the people who approve create them.
  { slug: 'approval-codes', title: 'Approval codes', noun: 'approval code', create: 'request:approve', formType: true },
];

export interface RefCreateBody {
  name: string;
  code: string;
  collegeIds?: number[];
  paymentRequestType?: string;
}
export interface RefUpdateBody {
  name?: string;
  isActive?: boolean;
  collegeIds?: number[];
}

/** Active entries first, then by name; inactive ones stay listed (old records use them). */
export function sortEntries(items: RefEntry[]): RefEntry[] {
  return [...items].sort((a, b) => Number(b.isActive) - Number(a.isActive) || a.name.localeCompare(b.name));
}

const referenceApi = api.enhanceEndpoints({ addTagTypes: ['ReferenceList'] }).injectEndpoints({
  endpoints: (build) => ({
    settingsRefList: build.query<RefEntry[], { slug: string; paymentRequestType?: string | null }>({
      query: ({ slug, paymentRequestType }) => ({ url: `/${slug}`, params: paymentRequestType ? { PaymentRequestType: paymentRequestType } : {} }),
      providesTags: (_r, _e, { slug }) => [{ type: 'ReferenceList', id: slug }],
    }),
    settingsProgramColleges: build.query<RefEntry[], number | null>({
      query: (programId) => ({ url: '/colleges', params: programId ? { MentorProgramId: programId } : {} }),
      providesTags: [{ type: 'ReferenceList', id: 'colleges' }],
    }),
    settingsFormTypes: build.query<RefEntry[], void>({ query: () => '/payment-requests/types' }),
    createRefEntry: build.mutation<RefEntry, { slug: string; body: RefCreateBody }>({
      query: ({ slug, body }) => ({ url: `/${slug}`, method: 'POST', body }),
      invalidatesTags: (_r, error, { slug }) => (error ? [] : [{ type: 'ReferenceList', id: slug }, { type: 'ReferenceList', id: 'colleges' }]),
      extraOptions: { quiet: true },
    }),
    updateRefEntry: build.mutation<RefEntry, { slug: string; id: number; body: RefUpdateBody }>({
      query: ({ slug, id, body }) => ({ url: `/${slug}/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error, { slug }) => (error ? [] : [{ type: 'ReferenceList', id: slug }, { type: 'ReferenceList', id: 'colleges' }]),
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useSettingsRefListQuery,
  useSettingsProgramCollegesQuery,
  useSettingsFormTypesQuery,
  useCreateRefEntryMutation,
  useUpdateRefEntryMutation,
} = referenceApi;
