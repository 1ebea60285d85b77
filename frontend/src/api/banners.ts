import { api } from './api';

// Active notification banners show on every page for every signed-in user, so
// the query lives here (cross-cutting) rather than in a feature. The settings
// editor invalidates the tag after saving, so its author sees the change at once.

export interface ActiveBanner {
  id: number;
  message: string;
  /** 'Info' | 'Warning' | 'Error'. */
  severity: string;
  startsAt: string | null;
  endsAt: string | null;
  isActive: boolean;
}

export const ACTIVE_BANNERS_TAG = 'ActiveBanners' as const;
/** Others' banners appear without a reload within this time. */
export const BANNER_POLL_MS = 5 * 60 * 1000;

const bannersApi = api.enhanceEndpoints({ addTagTypes: [ACTIVE_BANNERS_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    getActiveBanners: build.query<ActiveBanner[], void>({
      query: () => ({ url: '/system-settings/notification-banners', params: { ActiveOnly: true } }),
      providesTags: [ACTIVE_BANNERS_TAG],
    }),
  }),
});

export const { useGetActiveBannersQuery } = bannersApi;
export const invalidateActiveBanners = () => bannersApi.util.invalidateTags([ACTIVE_BANNERS_TAG]);
