import { Button, Checkbox, Group, NumberInput, Select, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { UnseenHeader } from '../../components/TableHead';
import { RemoveRowCell } from './RemoveRowCell';
import { formatCents } from '../../components/money';
import { MoneyField } from '../../components/MoneyInput';
import type { RefItem } from '../../api/wire';
import { computedCents, isEntered, ratePerUnit, referenceOf, type FormRules, type Rates } from './formRules';
import { emptyRow, FORM_SPECS, genericDetails, type FieldSpec, type GenericValues } from './genericForms';
import type { FormLists } from './useFormRules';
import { clearable } from '../../lib/clearable';
import { useRowFocus } from '../../lib/rowFocus';

interface Props {
  formType: string;
  rules: FormRules;
  values: GenericValues;
  onChange: (next: GenericValues) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lists: FormLists;
  /** The rates the amount is computed with (settings now, or the ones the request recorded). */
  rates?: Rates;
}

/** Active items, and the one already chosen even when it is no longer active. */
const options = (items: RefItem[] | undefined, current: string | null) =>
  (items ?? []).filter((i) => i.isActive || String(i.id) === current).map((i) => ({ value: String(i.id), label: i.name }));

function Field({
  spec,
  label,
  inRow,
  optional,
  items,
  value,
  onChange,
  error,
  readOnly,
}: {
  spec: FieldSpec;
  label: string;
  /** In a table row the column header names it, so the label is for assistive technology only. */
  inRow: boolean;
  optional: boolean;
  /** The reference list of a `ref` field. */
  items?: RefItem[];
  value: unknown;
  onChange: (v: unknown) => void;
  error?: string;
  readOnly: boolean;
}) {
  const named = inRow ? { 'aria-label': label } : { label };
  // Optional fields say so (the server accepts them empty); every other one is required.
  const mark = !readOnly && optional ? { description: 'Optional' } : {};
  const common = { ...named, ...mark, readOnly, error };
  switch (spec.kind) {
    case 'bool':
      return <Checkbox aria-label={label} checked={value === true} disabled={readOnly} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'date':
      return <TextInput type="date" {...common} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'text':
      return <TextInput {...common} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'money':
      return <MoneyField {...common} value={value === '' || value === null || value === undefined ? '' : Number(value)} onChange={onChange} />;
    case 'number':
      return (
        <NumberInput
          {...common}
          min={0}
          decimalScale={2}
          value={value as number | ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
        />
      );
    case 'ref':
    case 'choice': {
      const data = spec.kind === 'choice' ? (spec.choices ?? []).map((c) => ({ value: c, label: c })) : options(items, (value as string | null) ?? null);
      return <Select {...common} {...clearable(label, optional && !readOnly)} searchable data={data} value={(value as string | null) ?? null} onChange={onChange} />;
    }
  }
}

/** What the server will compute, while typing: the form's own rule, with the rate it uses. */
function ComputedAmount({ rules, formType, values, rates }: { rules: FormRules; formType: string; values: GenericValues; rates?: Rates }) {
  const amount = computedCents(rules.amount, genericDetails(formType, values, rules), rates);
  const per = ratePerUnit(rules.amount, rates);
  return (
    <Text size="sm" ta="right" data-testid="computed-amount">
      {amount === null ? (
        // Until GET /payment-requests/rates answers, the rate is unknown here.
        'Amount: computed from the rates when saved'
      ) : (
        <>
          Amount: <b>{formatCents(amount)}</b>
          {per && ` (${formatCents(per.cents)} per ${per.unit})`}
        </>
      )}
    </Text>
  );
}

/** A form's typed details from its layout in genericForms.ts and its rules, with field errors (`details.x`, `details.items[1].amount`). */
export function GenericFields({ formType, rules, values, onChange, errors, readOnly, lists, rates }: Props) {
  const spec = FORM_SPECS[formType];
  const { bodyRef: rowsRef, added: rowAdded, removed: rowRemoved } = useRowFocus();
  if (!spec) return null;
  const set = (key: string, v: unknown) => onChange({ ...values, [key]: v });
  const rows = spec.rows ? ((values[spec.rows.key] as Record<string, unknown>[] | undefined) ?? []) : [];
  const setRow = (i: number, key: string, v: unknown) =>
    set(spec.rows!.key, rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  const reference = (f: FieldSpec) => {
    const r = referenceOf(rules, f.key);
    return { optional: r?.optional ?? false, items: r ? lists[r.list] : undefined };
  };
  return (
    <>
      {spec.heading && (
        <Title order={2} size="h5">
          {spec.heading}
        </Title>
      )}
      {spec.fields.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {spec.fields.map((f) => (
            <Field
              key={f.key}
              spec={f}
              label={f.label}
              inRow={false}
              {...reference(f)}
              value={values[f.key]}
              onChange={(v) => set(f.key, v)}
              error={errors[`details.${f.key}`]}
              readOnly={readOnly}
            />
          ))}
        </SimpleGrid>
      )}
      {spec.rows && (
        <>
          <ScrollWhenNarrow label={`${spec.rows.label}s`} minWidth={480}>
          <Table aria-label={`${spec.rows.label}s`} withTableBorder>
            <Table.Thead>
              <Table.Tr>
                {spec.rows.columns.map((c) => (
                  <Table.Th key={c.key}>{c.label.charAt(0).toUpperCase() + c.label.slice(1)}</Table.Th>
                ))}
                {!readOnly && <UnseenHeader>Remove</UnseenHeader>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody ref={rowsRef}>
              {rows.map((r, i) => (
                <Table.Tr key={i}>
                  {spec.rows!.columns.map((c) => (
                    <Table.Td key={c.key}>
                      <Field
                        spec={c}
                        label={`${spec.rows!.label} ${i + 1} ${c.label}`}
                        inRow
                        {...reference(c)}
                        value={r[c.key]}
                        onChange={(v) => setRow(i, c.key, v)}
                        error={errors[`details.${spec.rows!.key}[${i}].${c.key}`]}
                        readOnly={readOnly}
                      />
                    </Table.Td>
                  ))}
                  {!readOnly && (
                    <RemoveRowCell
                      label={`Remove ${spec.rows!.label.toLowerCase()} ${i + 1}`}
                      onlyRow={rows.length === 1}
                      onRemove={(e) => {
                        rowRemoved(e.currentTarget);
                        set(spec.rows!.key, rows.filter((_, j) => j !== i));
                      }}
                    />
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </ScrollWhenNarrow>
          {errors[`details.${spec.rows.key}`] && (
            <Text c="red" size="sm">
              {spec.rows.label}s: {errors[`details.${spec.rows.key}`]}
            </Text>
          )}
          {!readOnly && (
            <Group>
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  set(spec.rows!.key, [...rows, emptyRow(spec.rows!.columns)]);
                  rowAdded();
                }}
              >
                Add {spec.rows.label.toLowerCase()}
              </Button>
            </Group>
          )}
        </>
      )}
      {!isEntered(rules) && <ComputedAmount rules={rules} formType={formType} values={values} rates={rates} />}
    </>
  );
}
