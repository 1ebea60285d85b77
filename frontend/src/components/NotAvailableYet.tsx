import { Text } from '@mantine/core';
import { PageCard } from './PageCard';

export const NOT_AVAILABLE_TEXT = 'This section is not available yet.';

/** Stand-in body for pages whose feature has not been built yet. */
export function NotAvailableYet({ title, description }: { title: string; description?: string }) {
  return (
    <PageCard title={title}>
      <Text>{NOT_AVAILABLE_TEXT}</Text>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
    </PageCard>
  );
}
