import { Anchor, Box, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { DetailsTable } from './DetailsTable';
import { Link } from 'react-router';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import {
  useGetPaymentRequestQuery,
} from './api';
import { detailsView } from './detailsView';
import { ReceiptList } from './Receipts';
import { useFormLists, useFormRules } from './useFormRules';
import { requestRef } from '../../lib/labels';

/**
 * One request's typed details, read-only, fetched when its row is opened
 * (GET /payment-requests/{F}/{id}), with a link to the full view.
 */
export function RequestDetailsPanel({ formType, id }: { formType: string; id: number }) {
  const request = useGetPaymentRequestQuery({ formType, id });
  const { rules } = useFormRules(formType);
  const lists = useFormLists(rules);
  const label = requestRef(formType, id);
  if (request.isLoading) return <Loader size="sm" aria-label={`Loading ${label}`} />;
  if (request.error || !request.data) return <ErrorDisplay error={asApiError(request.error)} title={`${label} could not be loaded`} />;
  const view = detailsView(formType, request.data.details, lists, rules);
  // The list may cut the description column; the panel shows it whole.
  const lines = request.data.description ? [{ label: 'Description', value: request.data.description }, ...view.lines] : view.lines;
  return (
    <Stack gap="sm" aria-label={`Details of ${label}`} role="group">
      {lines.length > 0 && (
        <SimpleGrid component="dl" cols={{ base: 2, md: 4 }} spacing="xs" verticalSpacing={4} m={0}>
          {lines.map((l) => (
            <Box key={l.label}>
              <Text component="dt" size="xs" c="dimmed">
                {l.label}
              </Text>
              <Text component="dd" size="sm" m={0}>
                {l.value}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      )}
      {view.table && <DetailsTable table={view.table} label={`${view.table.label} of ${label}`} />}
      {rules?.receipts && <ReceiptList requestId={id} files={request.data.files ?? []} />}
      <Group>
        <Anchor component={Link} to={`/payment-request/${formType}/${id}/details`} size="sm">
          Open {label}
        </Anchor>
      </Group>
    </Stack>
  );
}
