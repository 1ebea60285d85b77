import { Card, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useHasPermission } from '../lib/hooks';
import type { PermissionCode } from '../lib/permissions';
import { PageHeading } from './PageHeading';

export const FORBIDDEN_TEXT = 'You do not have permission to view this page';

/** The 403 card shown in place of a page the user may not see. */
export function ForbiddenCard() {
  return (
    <Card withBorder radius="md" padding="xl" role="alert" aria-label="Permission denied">
      <Stack gap="xs" align="center">
        <Text c="red.8" fw={700} fz="h2" aria-hidden>
          403
        </Text>
        <PageHeading size="h4">Forbidden</PageHeading>
        <Text c="dimmed">{FORBIDDEN_TEXT}</Text>
      </Stack>
    </Card>
  );
}

/**
 * Renders children only when the user holds `permission`. Pages get the 403
 * card; pass `fallback={null}` to simply hide a smaller piece of content.
 */
export function PermissionGate({
  permission,
  fallback = <ForbiddenCard />,
  children,
}: {
  permission?: PermissionCode;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  return useHasPermission(permission) ? children : fallback;
}
