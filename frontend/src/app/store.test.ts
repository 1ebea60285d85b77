import { notifications } from '@mantine/notifications';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/api';
import { loggedIn } from '../api/authSlice';
import { closeChannel } from '../api/channel';
import { admin, fakeJwt, json } from '../test/helpers';
import { store } from './store';

vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveProbe: build.mutation<void, void>({ query: () => ({ url: '/probe', method: 'PUT' }) }),
    quietProbe: build.mutation<void, void>({
      query: () => ({ url: '/probe', method: 'PUT' }),
      extraOptions: { quiet: true },
    }),
    readProbe: build.query<void, void>({ query: () => '/probe' }),
  }),
});

describe('store', () => {
  beforeEach(() => {
    localStorage.setItem('accessToken', fakeJwt(900));
    localStorage.setItem('refreshToken', 'r1');
    store.dispatch(loggedIn(admin));
    vi.mocked(notifications.show).mockClear();
  });
  afterAll(() => closeChannel());

  it("shows a failed mutation as a toast with the server's detail", async () => {
    vi.stubGlobal('fetch', async () => json(409, { detail: 'Someone else changed this request.' }, 'Conflict'));
    await store.dispatch(probeApi.endpoints.saveProbe.initiate());
    expect(notifications.show).toHaveBeenCalledWith({
      color: 'red',
      title: 'Not possible right now',
      message: 'Someone else changed this request.',
    });
  });

  it('no toast for quiet endpoints, failed queries, or a 401 (which logs out)', async () => {
    vi.stubGlobal('fetch', async () => json(400, { detail: 'Bad value' }));
    await store.dispatch(probeApi.endpoints.quietProbe.initiate());
    const query = store.dispatch(probeApi.endpoints.readProbe.initiate());
    await query;
    query.unsubscribe();
    vi.stubGlobal('fetch', async () => json(401, { detail: 'Token revoked' }));
    await store.dispatch(probeApi.endpoints.saveProbe.initiate());
    expect(notifications.show).not.toHaveBeenCalled();
    expect(store.getState().auth.userDetails).toBeNull();
  });

  it('persists only auth under the key root', async () => {
    store.dispatch(loggedIn(admin));
    await vi.waitFor(() => expect(localStorage.getItem('persist:root')).toContain(admin.email));
    const persisted = JSON.parse(localStorage.getItem('persist:root')!);
    expect(Object.keys(persisted).sort()).toEqual(['_persist', 'auth']);
  });

  it('has the query defaults: no retry, no refetch on focus or reconnect, no cache after unmount', () => {
    const state = store.getState().api.config;
    expect(state.keepUnusedDataFor).toBe(0);
    expect(state.refetchOnFocus).toBe(false);
    expect(state.refetchOnReconnect).toBe(false);
  });
});
