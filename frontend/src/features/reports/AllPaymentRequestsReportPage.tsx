import { useReferenceListQuery } from '../../lib/referenceLists';
import { Group, Select, Stack, Text } from '@mantine/core';
import { apiUrl, minutesOffset } from '../../components/download';
import { ExportMenu } from '../../components/ExportMenu';
import { PageCard } from '../../components/PageCard';
import { useUrlState } from '../../components/useUrlState';
import { useGetReportCatalogueQuery } from './api';

const SCHEMA = { PaymentRequestType: 'code' } as const;

/** Every request of one form type, with each of its form's fields as a column: an export only
 * (GET /reports/payment-requests/{type}/{format}/retrieve). The chosen type is in the address bar. */
export default function AllPaymentRequestsReportPage() {
  const state = useUrlState(SCHEMA);
  const types = useReferenceListQuery('/payment-requests/types');
  const info = useGetReportCatalogueQuery().data?.find((r) => r.key === 'all-payments-requests');
  const type = state.values.PaymentRequestType;
  const data = (types.data ?? []).map((t) => ({ value: t.code ?? String(t.id), label: `${t.code} ${t.name}` }));

  return (
    <PageCard title={info?.title ?? 'All payment requests'}>
      <Text size="sm" c="dimmed">
        {info?.description ?? 'Every request of a form type, with all of its form fields.'}
      </Text>
      <Group align="flex-end" gap="md">
        <Select
          label="Form type"
          placeholder={types.error ? 'Could not be loaded' : 'Choose a form type'}
          error={types.error ? 'The form types could not be loaded.' : undefined}
          data={data}
          value={type ?? null}
          onChange={(v) => state.setFilters({ PaymentRequestType: v ?? undefined })}
          searchable
          w={360}
        />
        <ExportMenu
          label="Export every request"
          disabled={!type}
          fallbackName={`payment-requests-${type ?? ''}`}
          url={(format) => apiUrl(`/reports/payment-requests/${encodeURIComponent(type ?? '')}/${format}/retrieve`, { MinutesOffset: minutesOffset() })}
        />
      </Group>
      <Stack gap={2}>
        <Text size="sm">
          {type
            ? `The file holds every ${type} request you may see, in any status, one per row, with every field of the form as its own column.`
            : 'Choose a form type, then an export format.'}
        </Text>
      </Stack>
    </PageCard>
  );
}
