import { api } from '../../api/api';
import type { FiscalYear, Schemas } from '../../api/wire';

// Budgets by fiscal year. Amounts are JSON numbers with at most two decimals.

/** One row of GET /budgets: a fiscal year with its totals. */
export type BudgetSummary = Schemas['BudgetSummaryDto'];
export type BudgetLine = Schemas['BudgetLineDto'];
export type BudgetDetails = Schemas['BudgetDetailDto'];
export type BulkLine = Schemas['BulkLine'];

const budgetsApi = api.enhanceEndpoints({ addTagTypes: ['Budgets'] }).injectEndpoints({
  endpoints: (build) => ({
    listBudgets: build.query<BudgetSummary[], string>({
      query: (name) => ({ url: '/budgets', params: name ? { query: name } : {} }),
      providesTags: ['Budgets'],
    }),
    getBudget: build.query<BudgetDetails, number>({ query: (fiscalYearId) => `/budgets/${fiscalYearId}`, providesTags: ['Budgets'] }),
    // Answers the year's budget after the update.
    bulkUpdateBudget: build.mutation<BudgetDetails, { fiscalYearId: number; lines: BulkLine[] }>({
      query: (body) => ({ url: '/budgets/bulk-update', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets']),
      extraOptions: { quiet: true },
    }),
    createFiscalYear: build.mutation<FiscalYear, Omit<FiscalYear, 'id'>>({
      query: (body) => ({ url: '/system-settings/fiscal-years', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Budgets']),
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useListBudgetsQuery,
  useGetBudgetQuery,
  useBulkUpdateBudgetMutation,
  useCreateFiscalYearMutation,
} = budgetsApi;
