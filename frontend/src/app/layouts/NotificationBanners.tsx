import { Alert, Stack } from '@mantine/core';
import { BANNER_POLL_MS, useGetActiveBannersQuery } from '../../api/banners';

const COLOURS: Record<string, string> = { Info: 'blue', Warning: 'yellow', Error: 'red' };

/** Every banner showing now, above the page content, in the editor's order. */
export function NotificationBanners() {
  // A failed banner load must not disturb the page: nothing is shown then.
  const { data } = useGetActiveBannersQuery(undefined, { pollingInterval: BANNER_POLL_MS });
  if (!data?.length) return null;
  return (
    <Stack gap="xs" mb="md" data-testid="notification-banners">
      {data.map((banner) => (
        <Alert
          key={banner.id}
          color={COLOURS[banner.severity] ?? 'blue'}
          variant="light"
          withCloseButton={false}
          role={banner.severity === 'Error' ? 'alert' : 'status'}
          data-severity={banner.severity}
          styles={{ root: { borderLeft: `4px solid var(--mantine-color-${COLOURS[banner.severity] ?? 'blue'}-filled)` }, message: { whiteSpace: 'pre-wrap' } }}
        >
          {banner.message}
        </Alert>
      ))}
    </Stack>
  );
}
