import { api } from '../../api/api';
import type { FiscalYear, Schemas } from '../../api/wire';

// Budgets by fiscal year (DESIGN §5). Amounts are JSON numbers with at most two decimals.

/** One row of GET /budgets: a fiscal year with its totals. */
export type BudgetSummary = Schemas['BudgetSummaryDto'];
export type BudgetLine = Schemas['BudgetLineDto'];
export type BudgetDetails = Schemas['BudgetDetailDto'];
export type BulkLine = Schemas['BulkLine'];

/**
 * The list's rows, whether the server names the year flat (`fiscalYearId`, `name`)
 * or nested (`fiscalYear: {id, name, …}`).
 */
export function toSummary(raw: Record<string, unknown>): BudgetSummary {
  const year = (raw.fiscalYear ?? {}) as Partial<FiscalYear>;
  return {
    fiscalYearId: Number(raw.fiscalYearId ?? year.id ?? raw.id),
    name: String(raw.name ?? raw.fiscalYearName ?? year.name ?? ''),
    startDate: String(raw.startDate ?? year.startDate ?? ''),
    endDate: String(raw.endDate ?? year.endDate ?? ''),
    budgeted: Number(raw.budgeted ?? 0),
    approved: Number(raw.approved ?? 0),
    remaining: Number(raw.remaining ?? Number(raw.budgeted ?? 0) - Number(raw.approved ?? 0)),
  };
}

const budgetsApi = api.enhanceEndpoints({ addTagTypes: ['Budgets'] }).injectEndpoints({
  endpoints: (build) => ({
    listBudgets: build.query<BudgetSummary[], string>({
      query: (name) => ({ url: '/budgets', params: name ? { query: name } : {} }),
      transformResponse: (rows: Record<string, unknown>[]) => rows.map(toSummary),
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
    // Reference lists the grid names its lines with. Endpoint names carry the
    // feature's prefix so another feature's injection of the same list never collides.
  }),
});

export const {
  useListBudgetsQuery,
  useGetBudgetQuery,
  useBulkUpdateBudgetMutation,
  useCreateFiscalYearMutation,
} = budgetsApi;
