import { Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { selectUserDetails } from '../../api/authSlice';
import { useAppSelector } from '../../app/hooks';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { useGetHealthQuery, type Health } from './api';

function StatusBadge({ value }: { value: string }) {
  return <Badge color={value === 'ok' ? 'green' : 'red'}>{value}</Badge>;
}

function SystemStatus() {
  const { data, error, isLoading } = useGetHealthQuery();
  return (
    <Card withBorder radius="md" padding="md" aria-label="System status" component="section">
      <Title order={3} size="h5" mb="sm">
        System status
      </Title>
      {isLoading && <Loader size="sm" />}
      {error && <ErrorDisplay error={asApiError(error)} />}
      {data && <StatusRows health={data} />}
    </Card>
  );
}

function StatusRows({ health }: { health: Health }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm">Service</Text>
        <StatusBadge value={health.status} />
      </Group>
      <Group justify="space-between">
        <Text size="sm">Database</Text>
        <StatusBadge value={health.database} />
      </Group>
      <Group justify="space-between">
        <Text size="sm">Version</Text>
        <Text size="sm" fw={500}>
          {health.version}
        </Text>
      </Group>
    </Stack>
  );
}

/** Home for now: a welcome and the system status. The payment request list comes later. */
export default function HomePage() {
  const user = useAppSelector(selectUserDetails);
  return (
    <Stack gap="lg">
      <Title order={2}>Welcome, {user?.firstName} {user?.lastName}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" padding="md">
          <Text>
            MentorPay takes in, reviews and approves payment requests of the mentor program. Use the menu on the left
            to reach the sections you have access to.
          </Text>
          <Text size="sm" c="dimmed" mt="sm">
            Signed in as {user?.email} ({user?.roles[0]}).
          </Text>
        </Card>
        <SystemStatus />
      </SimpleGrid>
    </Stack>
  );
}
