import { api } from '../api/api';
import type { paths } from '../api/schema';
import type { FiscalYear, RefItem } from '../api/wire';

// The reference lists every feature picks from (programs, funds, form types, roles, fiscal years…), injected
// once, so a list read on two pages is one cache entry and one request.

type Route<P> = P extends `/api/v1${infer R}` ? R : never;
/** Every GET route whose answer is a list of reference items, read from the OpenAPI document. */
export type RefListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': RefItem[] } } } } } ? Route<P> : never;
}[keyof paths];

/** A list by its route, or with query parameters (approval codes of a form type, colleges of a program). */
export type RefListArg = RefListPath | { path: RefListPath; params: Record<string, string | number | undefined> };

export const referenceListsApi = api.enhanceEndpoints({ addTagTypes: ['FiscalYears'] }).injectEndpoints({
  endpoints: (build) => ({
    referenceList: build.query<RefItem[], RefListArg>({
      query: (arg) => (typeof arg === 'string' ? arg : { url: arg.path, params: arg.params }),
    }),
    // Tagged: closing, reopening or creating a year (budgets) reads the list again.
    fiscalYears: build.query<FiscalYear[], void>({ query: () => '/system-settings/fiscal-years', providesTags: ['FiscalYears'] }),
  }),
});

export const { useReferenceListQuery, useFiscalYearsQuery } = referenceListsApi;
