import { Button, Checkbox, Group, NumberInput, Select, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { RemoveRowCell } from './RemoveRowCell';
import { formatCents } from '../../components/money';
import { MoneyField } from '../../components/MoneyInput';
import type { RefItem } from '../../api/wire';
import { computedCents, FORM_SPECS, type FieldSpec, type GenericValues, type MealRates, type RefKey } from './genericForms';

export type GenericLookups = Partial<Record<RefKey, RefItem[]>> & { mealRates?: MealRates };

interface Props {
  formType: string;
  values: GenericValues;
  onChange: (next: GenericValues) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lookups: GenericLookups;
}

function Field({
  spec,
  label,
  value,
  onChange,
  error,
  readOnly,
  lookups,
}: {
  spec: FieldSpec;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  error?: string;
  readOnly: boolean;
  lookups: GenericLookups;
}) {
  // Optional fields say so (the server accepts them empty); every other one is required.
  const mark = !readOnly && spec.optional ? { description: 'Optional' } : {};
  switch (spec.kind) {
    case 'bool':
      return <Checkbox aria-label={label} checked={value === true} disabled={readOnly} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'date':
      return <TextInput type="date" label={label} {...mark} readOnly={readOnly} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} error={error} />;
    case 'text':
      return <TextInput label={label} {...mark} readOnly={readOnly} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} error={error} />;
    case 'money':
      return (
        <MoneyField label={label} {...mark} readOnly={readOnly} value={value === '' || value === null || value === undefined ? '' : Number(value)} onChange={onChange} error={error} />
      );
    case 'number':
      return (
        <NumberInput
          label={label}
          {...mark}
          min={0}
          decimalScale={2}
          readOnly={readOnly}
          value={value as number | ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
          error={error}
        />
      );
    case 'ref':
    case 'choice': {
      const data =
        spec.kind === 'choice'
          ? (spec.choices ?? []).map((c) => ({ value: c, label: c }))
          : (lookups[spec.ref!] ?? []).map((i) => ({ value: String(i.id), label: i.name }));
      return <Select label={label} {...mark} clearable={spec.optional} searchable readOnly={readOnly} data={data} value={(value as string | null) ?? null} onChange={onChange} error={error} />;
    }
  }
}

/** The details of F2, F4–F14 from their description in genericForms.ts, with field errors (`details.x`, `details.items[1].amount`). */
export function GenericFields({ formType, values, onChange, errors, readOnly, lookups }: Props) {
  const spec = FORM_SPECS[formType];
  if (!spec) return null;
  const set = (key: string, v: unknown) => onChange({ ...values, [key]: v });
  const rows = spec.rows ? ((values[spec.rows.key] as Record<string, unknown>[] | undefined) ?? []) : [];
  const setRow = (i: number, key: string, v: unknown) =>
    set(spec.rows!.key, rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  const amount = computedCents(formType, values, lookups.mealRates);
  return (
    <>
      {spec.fields.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {spec.fields.map((f) => (
            <Field
              key={f.key}
              spec={f}
              label={f.label}
              value={values[f.key]}
              onChange={(v) => set(f.key, v)}
              error={errors[`details.${f.key}`]}
              readOnly={readOnly}
              lookups={lookups}
            />
          ))}
        </SimpleGrid>
      )}
      {spec.rows && (
        <>
          <Table aria-label={`${spec.rows.label}s`} withTableBorder>
            <Table.Thead>
              <Table.Tr>
                {spec.rows.columns.map((c) => (
                  <Table.Th key={c.key}>{c.label.charAt(0).toUpperCase() + c.label.slice(1)}</Table.Th>
                ))}
                {!readOnly && <Table.Th aria-label="Remove" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={i}>
                  {spec.rows!.columns.map((c) => (
                    <Table.Td key={c.key}>
                      <Field
                        spec={c}
                        label={`${spec.rows!.label} ${i + 1} ${c.label}`}
                        value={r[c.key]}
                        onChange={(v) => setRow(i, c.key, v)}
                        error={errors[`details.${spec.rows!.key}[${i}].${c.key}`]}
                        readOnly={readOnly}
                        lookups={lookups}
                      />
                    </Table.Td>
                  ))}
                  {!readOnly && (
                    <RemoveRowCell
                      label={`Remove ${spec.rows!.label.toLowerCase()} ${i + 1}`}
                      onlyRow={rows.length === 1}
                      onRemove={() => set(spec.rows!.key, rows.filter((_, j) => j !== i))}
                    />
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {errors[`details.${spec.rows.key}`] && (
            <Text c="red" size="sm">
              {errors[`details.${spec.rows.key}`]}
            </Text>
          )}
          {!readOnly && (
            <Group>
              <Button variant="light" size="xs" onClick={() => set(spec.rows!.key, [...rows, spec.rows!.empty()])}>
                Add {spec.rows.label.toLowerCase()}
              </Button>
            </Group>
          )}
        </>
      )}
      {!spec.entered && (
        <Text size="sm" ta="right" data-testid="computed-amount">
          {amount === null ? 'Amount: computed from the rates when saved' : <>Amount: <b>{formatCents(amount)}</b></>}
        </Text>
      )}
    </>
  );
}
