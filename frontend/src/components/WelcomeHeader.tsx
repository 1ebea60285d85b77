import { Badge, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { useBelow } from './useBelow';
import { selectUserDetails } from '../api/authSlice';
import { useGetHealthQuery } from '../api/health';
import { useAppSelector } from '../lib/hooks';

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
  const narrow = useBelow('sm');
  return (
    // One line: at 1280x800 the work list below must keep at least 8 rows above the fold.
    // In a narrow window the status goes under the greeting, and the greeting wraps.
    <Group justify="space-between" align="center" wrap={narrow ? 'wrap' : 'nowrap'} gap="sm">
      <Group gap="sm" align="baseline" wrap="nowrap" style={{ minWidth: 0 }}>
        <Title order={2} size="h4" style={narrow ? { overflowWrap: 'anywhere' } : { whiteSpace: 'nowrap' }}>
          Welcome, {user?.firstName} {user?.lastName}
        </Title>
        <Text size="sm" c="dimmed" truncate>
          Signed in as {user?.email} ({user?.roles[0]}).
        </Text>
      </Group>
      <Paper withBorder radius="md" px="sm" py={2} component="section" aria-label="System status" style={{ flexShrink: 0, maxWidth: '100%' }}>
        {health.isLoading && <Loader size="xs" />}
        {health.error && <StatusBadge label="Service" value="unreachable" />}
        {health.data && (
          <Group gap="md" wrap="wrap">
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
