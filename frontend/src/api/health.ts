import { api } from './api';

// The service's health shows in the header of Home for every signed-in user (cross-cutting).

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
