import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

export type NotificationSettings = Schemas['NotificationSettings'];
export type NotificationMode = NotificationSettings['mode'];

// The signed-in user's own choice; the dialog shows a refusal itself: quiet.
const notificationsApi = api.enhanceEndpoints({ addTagTypes: ['MyNotifications'] }).injectEndpoints({
  endpoints: (build) => ({
    getMyNotifications: build.query<NotificationSettings, void>({ query: () => '/identity/me/notifications', providesTags: ['MyNotifications'] }),
    setMyNotifications: build.mutation<NotificationSettings, NotificationSettings>({
      query: (body) => ({ url: '/identity/me/notifications', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['MyNotifications']),
      extraOptions: { quiet: true },
    }),
  }),
});

export const { useGetMyNotificationsQuery, useSetMyNotificationsMutation } = notificationsApi;
