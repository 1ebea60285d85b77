import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useGetReportCatalogueQuery } from './api';

/** /reports: a card for each report the server says the user may read (GET /reports), nothing else. */
export default function ReportsPage() {
  const catalogue = useGetReportCatalogueQuery();
  const reports = catalogue.data ?? [];
  return (
    <PageCard title="Reports">
      <QueryStatus isLoading={catalogue.isLoading} error={catalogue.error}>
        {reports.length === 0 ? (
          <Text c="dimmed">Your role may not read any report.</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="list" aria-label="Reports">
            {reports.map((r) => (
              <Card key={r.key} withBorder radius="md" padding="md" role="listitem" data-report={r.key}>
                <Stack gap="xs" h="100%" justify="space-between">
                  <Stack gap={4}>
                    <Anchor component={Link} to={r.route} fw={600}>
                      {r.title}
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {r.description}
                    </Text>
                  </Stack>
                  <Group gap={4}>
                    {r.formats.map((f) => (
                      <Badge key={f} size="xs" variant="light" color="gray">
                        {f.toUpperCase()}
                      </Badge>
                    ))}
                  </Group>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </QueryStatus>
    </PageCard>
  );
}
