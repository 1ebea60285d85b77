import { useFiscalYearsQuery } from '../../lib/referenceLists';
import { Alert, Anchor, Button, Group, List, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { CALENDAR_LABELS } from '../../components/dates';
import { notifications } from '@mantine/notifications';
import { skipToken } from '@reduxjs/toolkit/query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ApiError } from '../../api/errors';
import { openConfirm } from '../../components/confirmDialogs';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { formatMoney } from '../../components/money';
import { PageCard } from '../../components/PageCard';
import {
  useGenerateVendorPaymentMutation,
  useGetVendorPaymentPreviewQuery,
  useGetVendorPaymentReadyQuery,
  type VendorPaymentRange,
} from './VendorPaymentApi';
import { VendorPaymentRowsTable } from './VendorPaymentRowsTable';
import { confirmText, defaultYear, outsideText, rangeHolding, rangeProblem, yearLabel } from './VendorPaymentRules';
import { requestRef } from '../../lib/labels';

/**
 * Create mode: choose a fiscal year and approval dates, see what would be paid (count, total,
 * rows), confirm, and land on the new report. It opens on the year holding the most ready
 * requests, over days that hold all of them (approvals trail a year's end); a range that leaves
 * some out says how many, and widens on request. The server pays exactly what was previewed: if it
 * changed meanwhile the generation is refused (409) and the preview reloads.
 */
export function VendorPaymentGenerateForm() {
  const navigate = useNavigate();
  const years = useFiscalYearsQuery();
  const ready = useGetVendorPaymentReadyQuery(undefined, { refetchOnMountOrArgChange: true });
  const [yearId, setYearId] = useState<string | null>(null);
  const [start, setStart] = useState<string | null>(null);
  const [end, setEnd] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(25);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [generate, generating] = useGenerateVendorPaymentMutation();
  // The browser's offset, read once: preview and generation must read days alike.
  const offset = useMemo(() => new Date().getTimezoneOffset(), []);

  const waitingOf = (id: number) => ready.data?.find((w) => w.fiscalYearId === id);
  const chooseYear = (id: string | null) => {
    setYearId(id);
    const year = years.data?.find((y) => String(y.id) === id);
    const days = year ? rangeHolding(year, waitingOf(year.id)) : undefined;
    setStart(days?.start ?? null);
    setEnd(days?.end ?? null);
    setPage(1);
  };

  // Once the years and what waits in them arrive, the form opens on the year with the most
  // requests ready (while rendering: it is this form's own state).
  if (yearId === null && years.data && (ready.data || ready.error)) {
    const year = defaultYear(years.data, dayjs().format('YYYY-MM-DD'), ready.data ?? []);
    if (year) chooseYear(String(year.id));
  }
  const waitingIn = (id: number) => waitingOf(id)?.count ?? 0;
  const waiting = (ready.data ?? []).filter((w) => w.count > 0);
  const chosen = years.data?.find((y) => String(y.id) === yearId);

  const problem = rangeProblem(start, end);
  // A bound of the range; changing it shows the preview from its first page.
  const dateField = (label: string, value: string | null, set: (value: string | null) => void, error?: string) => (
    <DateInput
      ariaLabels={CALENDAR_LABELS}
      label={label}
      required
      valueFormat="YYYY-MM-DD"
      placeholder="YYYY-MM-DD"
      value={value}
      onChange={(v) => {
        set(v);
        setPage(1);
      }}
      error={error}
    />
  );
  const range: VendorPaymentRange | undefined =
    yearId && start && end && !problem ? { fiscalYearId: Number(yearId), startDate: start, endDate: end, minutesOffset: offset } : undefined;
  const preview = useGetVendorPaymentPreviewQuery(range ? { ...range, page, size } : skipToken, { refetchOnMountOrArgChange: true });
  const shown = range && preview.data && !preview.isFetching ? preview.data : undefined;
  const count = shown?.totalCount ?? 0;
  const total = shown?.totals.amount ?? 0;
  const outside = shown?.outsideRange;
  // Widening keeps the chosen days and reaches every ready request of the year.
  const widen = () => {
    if (!chosen || !start || !end) return;
    const all = rangeHolding(chosen, waitingOf(chosen.id));
    setStart(all.start < start ? all.start : start);
    setEnd(all.end > end ? all.end : end);
    setPage(1);
  };

  const submit = async () => {
    if (!range || !shown || count === 0) return;
    setFailure(null);
    const confirmed = await openConfirm({
      title: 'Generate vendor payment report',
      text: confirmText(count, total),
      confirmLabel: 'Generate',
      cancelLabel: 'Cancel',
    });
    if (!confirmed) return;
    try {
      const entry = await generate({ ...range, expectedCount: count, expectedTotal: total }).unwrap();
      notifications.show({ color: 'green', message: `Vendor payment report #${entry.id} generated: ${entry.rowCount} requests marked Processed.` });
      navigate(`/reports/vendor-payment/${entry.id}/details`);
    } catch (error) {
      setFailure(asApiError(error));
      void preview.refetch();
    }
  };

  return (
    <PageCard
      title="Generate vendor payment report"
      actions={
        <Anchor component={Link} to="/reports/vendor-payment/list" size="sm">
          All vendor payment reports
        </Anchor>
      }
    >
      <Stack gap="md">
        {years.error && <ErrorDisplay error={asApiError(years.error)} />}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Fiscal year"
            required
            placeholder={years.isLoading ? 'Loading…' : 'Choose a fiscal year'}
            data={(years.data ?? []).map((y) => ({ value: String(y.id), label: ready.data ? yearLabel(y.name, waitingIn(y.id)) : y.name }))}
            value={yearId}
            onChange={chooseYear}
            allowDeselect={false}
          />
          {dateField('Approved from', start, setStart)}
          {dateField('Approved to', end, setEnd, start && end ? problem : undefined)}
        </SimpleGrid>
        {ready.data && (
          <Group gap="xs" data-testid="vendor-payment-waiting">
            <Text size="sm">
              {waiting.length === 0
                ? 'No request is ready for processing in any fiscal year.'
                : `Ready for processing: ${waiting.map((w) => `${w.count} in ${w.fiscalYearName}`).join(', ')}.`}
            </Text>
            {waiting
              .filter((w) => String(w.fiscalYearId) !== yearId)
              .map((w) => (
                <Button key={w.fiscalYearId} variant="subtle" size="compact-sm" onClick={() => chooseYear(String(w.fiscalYearId))}>
                  Show the {w.count} in {w.fiscalYearName}
                </Button>
              ))}
          </Group>
        )}
        {preview.error && <ErrorDisplay error={asApiError(preview.error)} />}
        {outside && outside.count > 0 && chosen && (
          <Alert color="orange" title="Ready requests outside these dates" data-testid="vendor-payment-outside">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{outsideText(outside.count, outside.amount, chosen.name)}</Text>
              <Button size="xs" variant="default" onClick={widen}>
                Widen the dates to include them
              </Button>
            </Stack>
          </Alert>
        )}
        {failure && (
          <Alert color={failure.status === 409 ? 'orange' : 'red'} title={failure.status === 409 ? 'The preview changed' : 'Not generated'} role="alert">
            {failure.detail}
          </Alert>
        )}
        {shown && shown.payeeChanges.length > 0 && (
          <Alert color="orange" title="Payees changed since approval" data-testid="vendor-payment-payee-changes">
            <Stack gap="xs">
              <Text size="sm">
                These requests are paid to the payee as approved. Open one to send it back for revision if the new name or address
                should be paid.
              </Text>
              <List size="sm" spacing={4}>
                {shown.payeeChanges.map((c) => (
                  <List.Item key={c.requestId}>
                    <Anchor component={Link} to={`/payment-request/${c.formType}/${c.requestId}/details`}>
                      {requestRef(c.formType, c.requestId)}
                    </Anchor>
                    : {c.message}
                  </List.Item>
                ))}
              </List>
            </Stack>
          </Alert>
        )}
        <Group justify="space-between" align="center">
          <Text size="sm" data-testid="vendor-payment-preview-summary" aria-live="polite">
            {!range
              ? 'Choose a fiscal year and approval dates.'
              : shown
                ? count === 0
                  ? 'Nothing to pay: no request ready for processing was approved in this range.'
                  : `${count} ${count === 1 ? 'request' : 'requests'} ready for processing, totalling ${formatMoney(total)}.`
                : 'Loading the preview…'}
          </Text>
          <Button onClick={() => void submit()} disabled={!shown || count === 0} loading={generating.isLoading}>
            Generate
          </Button>
        </Group>
        {range && (
          <VendorPaymentRowsTable
            label="Requests to pay"
            rows={preview.data?.items ?? []}
            page={page}
            size={size}
            totalCount={preview.data?.totalCount ?? 0}
            onPage={setPage}
            onSize={(s) => {
              setSize(s);
              setPage(1);
            }}
            loading={preview.isLoading}
            fetching={preview.isFetching}
            empty="No request ready for processing was approved in this range."
          />
        )}
      </Stack>
    </PageCard>
  );
}
