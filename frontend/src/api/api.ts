import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/**
 * The one RTK Query api slice; features add endpoints with injectEndpoints.
 * No retry (the base query is not wrapped in `retry`), no refetch on
 * focus or reconnect, nothing cached after the last subscriber unmounts.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: () => ({}),
  keepUnusedDataFor: 0,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
});
