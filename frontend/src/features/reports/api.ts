import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

// The reports area's calls (docs/reports-api.md of the reports back end). Tables are
// built from the server's catalogue (GET /reports: columns, totals, default sort), not from a copy.

// The wire shapes are the server's (generated from its OpenAPI document, src/reports/catalogue.rs,
// query.rs, bonuses.rs...); only the row is loosened to what a table reads.
export type ColumnKind = Schemas['Kind'];

export type ReportColumn = Schemas['CatalogueColumn'];

/** One entry of GET /reports: a report the caller may read. `path` is the view's API path
 * (`/api/v1/reports/…`); the export is `${path}/retrieve`. */
export type ReportInfo = Schemas['CatalogueEntry'];

export type ReportRow = Schemas['Record'];

export interface ReportPage extends Omit<Schemas['ReportPage'], 'totals'> {
  /** Money and count columns' totals (the others are absent or null). */
  totals: Record<string, number | null>;
}

/** A payee to pick (the picker marks the ones not active). */
export type Payee = Schemas['Payee'];
export type ParticipantEmail = Schemas['EmailEntry'];
export type BonusYear = Schemas['BonusYear'];

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
  }),
});

export const {
  useGetReportCatalogueQuery,
  useGetReportViewQuery,
  useLazyGetParticipantEmailsQuery,
  useGetReportPayeesQuery,
  useGetBonusYearsQuery,
} = reportsApi;
