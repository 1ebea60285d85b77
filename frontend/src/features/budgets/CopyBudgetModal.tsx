import { Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import type { FiscalYear } from '../../api/wire';
import { SaveError } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { formatCents, toCents } from '../../components/money';
import { useFiscalYearsQuery } from '../../lib/referenceLists';
import { useCopyBudgetMutation, useGetBudgetQuery } from './api';
import { parsePercent, previousYear, rollOverTotals } from './rollOver';

/**
 * Fills an empty year with another year's lines, each changed by a percentage: the totals are
 * shown before anything is written; the server then creates every line in one transaction.
 * Kept mounted by the caller (the focus goes back to its button); the form, with its reads,
 * exists only while it is open.
 */
export function CopyBudgetModal({ target, opened, onClose }: { target: FiscalYear; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Copy a budget into ${target.name}`} centered>
      <CopyForm target={target} onClose={onClose} />
    </Modal>
  );
}

function CopyForm({ target, onClose }: { target: FiscalYear; onClose: () => void }) {
  const years = (useFiscalYearsQuery().data ?? []).filter((y) => y.id !== target.id);
  const [picked, setPicked] = useState<string | null>(null);
  const source = picked ?? (previousYear(years, target.startDate)?.id.toString() || null);
  const [percentText, setPercentText] = useState('0');
  const percent = parsePercent(percentText);
  const sourceBudget = useGetBudgetQuery(Number(source), { skip: source === null });
  const [copy, { isLoading, error }] = useCopyBudgetMutation();
  const errors = fieldErrors(error);
  const sourceName = years.find((y) => String(y.id) === source)?.name ?? '';
  // The current year's lines only: while another year loads, no preview of the one before.
  const lines = sourceBudget.currentData?.lines;
  const preview =
    lines && percent.hundredths !== undefined
      ? rollOverTotals(
          lines.map((l) => toCents(l.budgeted)),
          percent.hundredths,
        )
      : undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (source === null || percent.hundredths === undefined || !preview || preview.lines === 0) return;
    const result = await copy({ fiscalYearId: target.id, sourceFiscalYearId: Number(source), percentChange: percent.hundredths / 100 });
    if (result.data) {
      notifications.show({
        color: 'green',
        title: 'Budget copied',
        message: `${result.data.created} lines from ${sourceName}, ${formatCents(toCents(result.data.total))} in all.`,
      });
      onClose();
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Copy a budget">
      <Stack gap="md">
        <SaveError error={error} unshown={unshownErrors(errors, (f) => f === 'percentChange')} />
        <Select
          label="Copy from"
          required
          data={years.map((y) => ({ value: String(y.id), label: y.name }))}
          value={source}
          onChange={setPicked}
          allowDeselect={false}
        />
        <TextInput
          label="Change every amount by (%)"
          description="0 copies the amounts as they are; 3.5 raises each line by 3.5 %, rounded to the cent"
          value={percentText}
          error={percent.error ?? errors.percentChange}
          onChange={(e) => setPercentText(e.currentTarget.value)}
          w={260}
        />
        {preview && (
          <Table withTableBorder aria-label="Totals before copying" data-testid="copy-preview">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">Lines</Table.Th>
                <Table.Td ta="right">{preview.lines}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Total in {sourceName}</Table.Th>
                <Table.Td ta="right">{formatCents(preview.before)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Total in {target.name}</Table.Th>
                <Table.Td ta="right" data-testid="copy-total">
                  {formatCents(preview.after)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {preview?.lines === 0 && <Text size="sm">{sourceName} has no budget lines to copy.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={isLoading} disabled={!preview || preview.lines === 0 || percent.error !== undefined}>
            {preview ? `Copy ${preview.lines} line${preview.lines === 1 ? '' : 's'}` : 'Copy'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
