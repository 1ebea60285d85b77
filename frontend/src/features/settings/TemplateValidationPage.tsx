import { useReferenceListQuery } from '../../lib/referenceLists';
import { NumberInput, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FormEvent } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { askAndSave, EditorActions, SaveError, useLeaveGuard } from '../../components/EditorActions';
import { fieldErrors, rowErrors, unshownRowErrors } from '../../components/fieldErrors';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useDraft } from '../../components/useDraft';
import { useGetFormLimitsQuery, useUpdateFormLimitsMutation, type FormLimit } from './api';
import { TableScroll } from '../../components/TableScroll';

type CountField = 'submissionWindowDays' | 'maxMilesPerTrip' | 'maxHours' | 'maxNights';
const COUNT_COLUMNS: { field: CountField; label: string }[] = [
  { field: 'submissionWindowDays', label: 'Submission window (days)' },
  { field: 'maxMilesPerTrip', label: 'Max miles per trip' },
  { field: 'maxHours', label: 'Max hours' },
  { field: 'maxNights', label: 'Max nights' },
];
const SHOWN = new Set(['maxAmount', ...COUNT_COLUMNS.map((c) => c.field)]);

/**
 * The limits every payment request form is checked against, one row per form type
 * F1..F14 as the server lists them. A type-specific limit (miles, hours, nights)
 * is present exactly on the forms it applies to, so its cell shows only there.
 */
export default function TemplateValidationPage() {
  const canEdit = useHasPermission('setting:edit');
  const query = useGetFormLimitsQuery();
  // "F3 Travel and mileage": the code alone says little; the bare code until the names come.
  const types = useReferenceListQuery('/payment-requests/types');
  const formName = (code: string) => {
    const name = types.data?.find((t) => t.code === code)?.name;
    return name ? `${code} ${name}` : code;
  };
  const { draft, setDraft, dirty, reset, accept } = useDraft(query.data);
  const [update, { isLoading: saving, error, reset: clearError }] = useUpdateFormLimitsMutation();
  useLeaveGuard(canEdit && dirty);
  const errors = fieldErrors(error);

  const setCell = (index: number, patch: Partial<FormLimit>) =>
    setDraft((rows) => rows?.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const save = async () => {
    if (!draft) return;
    const result = await update(draft);
    if (result.data) {
      accept(result.data);
      notifications.show({ color: 'green', title: 'Saved', message: 'The form validation limits were saved.' });
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canEdit && dirty) void askAndSave(save);
  };
  const unshown = unshownRowErrors(errors, SHOWN);

  return (
    <PageCard title="Template validation">
      <Text size="sm" c="dimmed">
        Limits checked when a payment request is created, edited, submitted and approved.
      </Text>
      <QueryStatus isLoading={query.isLoading} error={query.error}>
        {draft && (
          <form onSubmit={onSubmit} noValidate aria-label="Form validation limits">
            <Stack gap="md">
              <SaveError error={error} unshown={unshown} />
              <TableScroll label="Limits per form" minWidth={900}>
                <Table striped withTableBorder verticalSpacing={4} aria-label="Limits per form" data-testid="limits-grid">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Form</Table.Th>
                      <Table.Th>Max amount</Table.Th>
                      {COUNT_COLUMNS.map((c) => (
                        <Table.Th key={c.field}>{c.label}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {draft.map((row, index) => {
                      const rowErr = rowErrors(errors, index);
                      return (
                        <Table.Tr key={row.formType} data-form-type={row.formType}>
                          <Table.Th scope="row">{formName(row.formType)}</Table.Th>
                          <Table.Td>
                            <NumberInput
                              aria-label={`${row.formType} max amount`}
                              decimalScale={2}
                              fixedDecimalScale
                              prefix="$"
                              thousandSeparator=","
                              min={0}
                              hideControls
                              readOnly={!canEdit}
                              value={row.maxAmount}
                              error={rowErr.maxAmount}
                              onChange={(v) => setCell(index, { maxAmount: v as number })}
                            />
                          </Table.Td>
                          {COUNT_COLUMNS.map(({ field, label }) => (
                            <Table.Td key={field}>
                              {field in row ? (
                                <NumberInput
                                  aria-label={`${row.formType} ${label.toLowerCase()}`}
                                  allowDecimal={false}
                                  min={0}
                                  hideControls
                                  readOnly={!canEdit}
                                  value={row[field] ?? ''}
                                  error={rowErr[field]}
                                  onChange={(v) => setCell(index, { [field]: v as number })}
                                />
                              ) : (
                                <Text c="dimmed" ta="center" aria-label="Does not apply">
                                  –
                                </Text>
                              )}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </TableScroll>
              {canEdit && <EditorActions dirty={dirty} saving={saving} onCancel={() => { clearError(); reset(); }} />}
            </Stack>
          </form>
        )}
      </QueryStatus>
    </PageCard>
  );
}
