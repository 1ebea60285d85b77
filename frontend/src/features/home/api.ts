import { api } from '../../api/api';

export interface Health {
  status: string;
  database: string;
  version: string;
}

const homeApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<Health, void>({ query: () => '/health' }),
  }),
});

export const { useGetHealthQuery } = homeApi;
