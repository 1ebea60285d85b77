import { api } from '../../api/api';

// The reports area's calls (DESIGN §6, docs/reports-api.md of the reports back end). Tables are
// built from the server's catalogue (GET /reports: columns, totals, default sort), not from a copy.

export type ColumnKind = 'text' | 'money' | 'int' | 'number' | 'percent' | 'date' | 'timestamp';

export interface ReportColumn {
  key: string;
  header: string;
  kind: ColumnKind;
  sortable?: boolean;
}

/** One entry of GET /reports: a report the caller may read. */
export interface ReportInfo {
  key: string;
  title: string;
  description: string;
  /** The UI route (SPEC §2). */
  route: string;
  /** The API path of the view (`/api/v1/reports/…`); the export is `${path}/retrieve`. */
  path: string;
  permission: string;
  filters: string[];
  formats: string[];
  columns: ReportColumn[];
  totals: string[];
  defaultSort?: { sortBy: string; sortDescending: boolean } | null;
}

export type ReportRow = Record<string, unknown>;

export interface ReportPage {
  items: ReportRow[];
  page: number;
  size: number;
  totalCount: number;
  totals: Record<string, number | null>;
}

/** A reference list entry; fixed enumerations carry their wire value in `code`. */
export interface RefItem {
  id: number;
  name: string;
  code?: string;
  isActive?: boolean;
}

export interface FiscalYear {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
}

export interface Payee {
  id: number;
  fullName: string;
  /** Active, Inactive or Pending: the picker marks the ones not active. */
  status: string;
}

export interface ParticipantEmail {
  fullName: string;
  email: string;
}

export interface BonusYear {
  fiscalYearId: number;
  fiscalYear: string;
  bonuses: number;
  approved: number;
  approvedSum: number;
}

/** The API slice's base URL already ends in /api/v1. */
export const relativeApiPath = (path: string) => path.replace(/^\/api\/v1(?=\/)/, '');

const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReportCatalogue: build.query<ReportInfo[], void>({ query: () => '/reports' }),
    getReportView: build.query<ReportPage, { path: string; params: Record<string, string> }>({
      query: ({ path, params }) => ({ url: relativeApiPath(path), params }),
      extraOptions: { quiet: true },
    }),
    getParticipantEmails: build.query<ParticipantEmail[], Record<string, string>>({
      query: (params) => ({ url: '/reports/participants/emails', params }),
      extraOptions: { quiet: true },
    }),
    getReportPayees: build.query<Payee[], string | undefined>({
      query: (fiscalYearId) => ({ url: '/reports/payee-list', params: fiscalYearId ? { FiscalYearId: fiscalYearId } : {} }),
    }),
    getBonusYears: build.query<BonusYear[], void>({ query: () => '/reports/bonuses/list', extraOptions: { quiet: true } }),

    // Reference lists of the filters, named apart from other features' injections.
    getReportMentorPrograms: build.query<RefItem[], void>({ query: () => '/mentor-programs' }),
    getReportFiscalYears: build.query<FiscalYear[], void>({ query: () => '/system-settings/fiscal-years' }),
    getReportFunds: build.query<RefItem[], void>({ query: () => '/funds' }),
    getReportApprovalCodes: build.query<RefItem[], string | undefined>({
      query: (formType) => ({ url: '/approval-codes', params: formType ? { PaymentRequestType: formType } : {} }),
    }),
    getReportFormTypes: build.query<RefItem[], void>({ query: () => '/payment-requests/types' }),
    getReportRoles: build.query<RefItem[], void>({ query: () => '/participants/roles' }),
    getReportCaucusRegions: build.query<RefItem[], void>({ query: () => '/caucus-regions' }),
  }),
});

export const {
  useGetReportCatalogueQuery,
  useGetReportViewQuery,
  useLazyGetParticipantEmailsQuery,
  useGetReportPayeesQuery,
  useGetBonusYearsQuery,
  useGetReportMentorProgramsQuery,
  useGetReportFiscalYearsQuery,
  useGetReportFundsQuery,
  useGetReportApprovalCodesQuery,
  useGetReportFormTypesQuery,
  useGetReportRolesQuery,
  useGetReportCaucusRegionsQuery,
} = reportsApi;
