import { Badge, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { selectUserDetails } from '../api/authSlice';
import { useGetHealthQuery } from '../api/health';
import { useAppSelector } from '../app/hooks';

function StatusBadge({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Badge size="sm" color={value === 'ok' ? 'green' : 'red'}>
        {value}
      </Badge>
    </Group>
  );
}

/** The small header of Home: who is signed in, and whether the service and its database are up. */
export function WelcomeHeader() {
  const user = useAppSelector(selectUserDetails);
  const health = useGetHealthQuery();
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
      <div>
        <Title order={2}>
          Welcome, {user?.firstName} {user?.lastName}
        </Title>
        <Text size="sm" c="dimmed">
          Signed in as {user?.email} ({user?.roles[0]}).
        </Text>
      </div>
      <Paper withBorder radius="md" px="sm" py={6} component="section" aria-label="System status">
        {health.isLoading && <Loader size="xs" />}
        {health.error && <StatusBadge label="Service" value="unreachable" />}
        {health.data && (
          <Group gap="md">
            <StatusBadge label="Service" value={health.data.status} />
            <StatusBadge label="Database" value={health.data.database} />
            <Group gap={4}>
              <Text size="xs" c="dimmed">
                Version
              </Text>
              <Text size="xs" fw={500}>
                {health.data.version}
              </Text>
            </Group>
          </Group>
        )}
      </Paper>
    </Group>
  );
}
