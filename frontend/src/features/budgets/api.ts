import { api } from '../../api/api';
import type { FiscalYear, Schemas } from '../../api/wire';

// Budgets by fiscal year. Amounts are JSON numbers with at most two decimals.

/** One row of GET /budgets: a fiscal year with its totals. */
export type BudgetSummary = Schemas['BudgetSummaryDto'];
export type BudgetLine = Schemas['BudgetLineDto'];
export type BudgetDetails = Schemas['BudgetDetailDto'];
export type BulkLine = Schemas['BulkLine'];
export type CopyBudgetResult = Schemas['CopyBudgetResult'];
/** What is still open in a fiscal year, and what closing it does (GET /budgets/{id}/close-preview). */
export type ClosePreview = Schemas['ClosePreviewDto'];

const budgetsApi = api.enhanceEndpoints({ addTagTypes: ['Budgets', 'FiscalYears'] }).injectEndpoints({
  endpoints: (build) => ({
    listBudgets: build.query<BudgetSummary[], string>({
      query: (name) => ({ url: '/budgets', params: name ? { query: name } : {} }),
      providesTags: ['Budgets'],
    }),
    getBudget: build.query<BudgetDetails, number>({ query: (fiscalYearId) => `/budgets/${fiscalYearId}`, providesTags: ['Budgets'] }),
    getClosePreview: build.query<ClosePreview, number>({
      query: (fiscalYearId) => `/budgets/${fiscalYearId}/close-preview`,
      providesTags: ['Budgets'],
    }),
    // Answers the year's budget after the update.
    bulkUpdateBudget: build.mutation<BudgetDetails, { fiscalYearId: number; lines: BulkLine[] }>({
      query: (body) => ({ url: '/budgets/bulk-update', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets']),
      extraOptions: { quiet: true },
    }),
    createFiscalYear: build.mutation<FiscalYear, Omit<FiscalYear, 'id'>>({
      query: (body) => ({ url: '/system-settings/fiscal-years', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets', 'FiscalYears']),
      extraOptions: { quiet: true },
    }),
    // Closing a year stops every charge to it; reopening undoes it. Both need a reason.
    setFiscalYearClosed: build.mutation<FiscalYear, { id: number; close: boolean; reason: string }>({
      query: ({ id, close, reason }) => ({
        url: `/system-settings/fiscal-years/${id}/${close ? 'close' : 'reopen'}`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets', 'FiscalYears']),
      extraOptions: { quiet: true },
    }),
    copyBudget: build.mutation<CopyBudgetResult, { fiscalYearId: number; sourceFiscalYearId: number; percentChange: number }>({
      query: ({ fiscalYearId, sourceFiscalYearId, percentChange }) => ({
        url: `/budgets/${fiscalYearId}/copy-from/${sourceFiscalYearId}`,
        method: 'POST',
        body: { percentChange },
      }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets']),
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useListBudgetsQuery,
  useGetBudgetQuery,
  useGetClosePreviewQuery,
  useBulkUpdateBudgetMutation,
  useCreateFiscalYearMutation,
  useSetFiscalYearClosedMutation,
  useCopyBudgetMutation,
} = budgetsApi;
