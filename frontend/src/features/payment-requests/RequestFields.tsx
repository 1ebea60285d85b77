import { MoneyField } from '../../components/MoneyInput';
import { RemoveRowCell } from './RemoveRowCell';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { formatCents } from '../../components/money';
import type { PayeeOption } from './api';
import type { RefItem } from '../../api/wire';
import { payeeLabel } from './names';
import { emptyTrip, isEntered, mileageCents, type F1Values, type F3Values, type RequestValues, type Trip } from './forms';
import { GenericFields, type GenericLookups } from './GenericFields';

const options = (items: RefItem[] | undefined, current: string | null) =>
  (items ?? []).filter((i) => i.isActive || String(i.id) === current).map((i) => ({ value: String(i.id), label: i.name }));

interface Props {
  formType: string;
  values: RequestValues;
  onChange: (next: RequestValues) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lookups: { programs?: RefItem[]; payees?: PayeeOption[]; colleges?: RefItem[]; travelPurposes?: RefItem[]; transitTypes?: RefItem[]; mileageRate?: number; generic: GenericLookups };
}

/** The common fields and the typed details of F1 / F3, with the server's field errors on each input. */
export function RequestFields({ formType, values, onChange, errors, readOnly, lookups }: Props) {
  const set = (patch: Partial<RequestValues>) => onChange({ ...values, ...patch });
  const f1 = (patch: Partial<F1Values>) => set({ f1: { ...values.f1, ...patch } });
  const f3 = (patch: Partial<F3Values>) => set({ f3: { ...values.f3, ...patch } });
  const err = (key: string) => errors[key];
  const num = (v: string | number): number | '' => (typeof v === 'number' ? v : v === '' ? '' : Number(v));

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Select
          label="Mentor program"
          searchable
          clearable
          readOnly={readOnly}
          data={(lookups.programs ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={values.mentorProgramId}
          onChange={(v) => set({ mentorProgramId: v, participationId: '' })}
          error={err('mentorProgramId')}
        />
        <Select
          label="Payee"
          required
          searchable
          readOnly={readOnly}
          placeholder={values.mentorProgramId ? undefined : 'Choose a mentor program first'}
          data={(lookups.payees ?? [])
            .filter((p) => !p.isDeleted || p.participationId === values.participationId)
            .map((p) => ({ value: String(p.participationId), label: payeeLabel(p, true) }))}
          value={values.participationId === '' ? null : String(values.participationId)}
          onChange={(v) => set({ participationId: v ? Number(v) : '' })}
          error={err('participationId')}
        />
        {isEntered(formType) && (
          <MoneyField
            label="Requested amount"
            required
            readOnly={readOnly}
            value={values.requestedAmount}
            onChange={(v) => set({ requestedAmount: v })}
            error={err('requestedAmount')}
          />
        )}
      </SimpleGrid>
      <TextInput
        label="Description"
        readOnly={readOnly}
        value={values.description}
        onChange={(e) => set({ description: e.currentTarget.value })}
        error={err('description')}
      />

      {formType === 'F1' && (
        <>
          <Title order={3} size="h5">
            Placement
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Select
              label="College"
              required
              searchable
              readOnly={readOnly}
              data={options(lookups.colleges, values.f1.collegeId)}
              value={values.f1.collegeId}
              onChange={(v) => f1({ collegeId: v })}
              error={err('details.collegeId')}
            />
            <TextInput
              label="Mentee name"
              required
              readOnly={readOnly}
              value={values.f1.menteeName}
              onChange={(e) => f1({ menteeName: e.currentTarget.value })}
              error={err('details.menteeName')}
            />
            <TextInput
              label="Course code"
              required
              readOnly={readOnly}
              value={values.f1.courseCode}
              onChange={(e) => f1({ courseCode: e.currentTarget.value })}
              error={err('details.courseCode')}
            />
            <NumberInput
              label="Hours"
              required
              min={0}
              decimalScale={2}
              readOnly={readOnly}
              value={values.f1.hours}
              onChange={(v) => f1({ hours: num(v) })}
              error={err('details.hours')}
            />
            <TextInput
              type="date"
              label="Placement start date"
              required
              readOnly={readOnly}
              value={values.f1.placementStartDate}
              onChange={(e) => f1({ placementStartDate: e.currentTarget.value })}
              error={err('details.placementStartDate')}
            />
            <TextInput
              type="date"
              label="Placement end date"
              required
              readOnly={readOnly}
              value={values.f1.placementEndDate}
              onChange={(e) => f1({ placementEndDate: e.currentTarget.value })}
              error={err('details.placementEndDate')}
            />
          </SimpleGrid>
        </>
      )}

      {formType !== 'F1' && formType !== 'F3' && (
        <GenericFields
          formType={formType}
          values={values.other}
          onChange={(other) => set({ other })}
          errors={errors}
          readOnly={readOnly}
          lookups={lookups.generic}
        />
      )}

      {formType === 'F3' && (
        <F3Fields values={values.f3} onChange={f3} errors={errors} readOnly={readOnly} lookups={lookups} />
      )}
    </Stack>
  );
}

function F3Fields({
  values,
  onChange,
  errors,
  readOnly,
  lookups,
}: {
  values: F3Values;
  onChange: (patch: Partial<F3Values>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  lookups: Props['lookups'];
}) {
  const setTrip = (i: number, patch: Partial<Trip>) => onChange({ trips: values.trips.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  const cents = mileageCents(values.trips, lookups.mileageRate);
  return (
    <>
      <Title order={3} size="h5">
        Travel
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Select
          label="Travel purpose"
          required
          readOnly={readOnly}
          data={options(lookups.travelPurposes, values.travelPurposeId)}
          value={values.travelPurposeId}
          onChange={(v) => onChange({ travelPurposeId: v })}
          error={errors['details.travelPurposeId']}
        />
        <Select
          label="Transit type"
          required
          readOnly={readOnly}
          data={options(lookups.transitTypes, values.transitTypeId)}
          value={values.transitTypeId}
          onChange={(v) => onChange({ transitTypeId: v })}
          error={errors['details.transitTypeId']}
        />
      </SimpleGrid>
      <Table aria-label="Trips" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Miles</Table.Th>
            {!readOnly && <Table.Th aria-label="Remove" />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {values.trips.map((t, i) => {
            const e = (f: string) => errors[`details.trips[${i}].${f}`];
            const n = i + 1;
            return (
              <Table.Tr key={i}>
                <Table.Td>
                  <TextInput type="date" aria-label={`Trip ${n} date`} readOnly={readOnly} value={t.date} onChange={(ev) => setTrip(i, { date: ev.currentTarget.value })} error={e('date')} />
                </Table.Td>
                <Table.Td>
                  <TextInput aria-label={`Trip ${n} from`} readOnly={readOnly} value={t.from} onChange={(ev) => setTrip(i, { from: ev.currentTarget.value })} error={e('from')} />
                </Table.Td>
                <Table.Td>
                  <TextInput aria-label={`Trip ${n} to`} readOnly={readOnly} value={t.to} onChange={(ev) => setTrip(i, { to: ev.currentTarget.value })} error={e('to')} />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Trip ${n} miles`}
                    min={0}
                    decimalScale={2}
                    readOnly={readOnly}
                    value={t.miles}
                    onChange={(v) => setTrip(i, { miles: typeof v === 'number' ? v : v === '' ? '' : Number(v) })}
                    error={e('miles')}
                  />
                </Table.Td>
                {!readOnly && (
                  <RemoveRowCell
                    label={`Remove trip ${n}`}
                    onlyRow={values.trips.length === 1}
                    onRemove={() => onChange({ trips: values.trips.filter((_, j) => j !== i) })}
                  />
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {errors['details.trips'] && (
        <Text c="red" size="sm">
          Trips: {errors['details.trips']}
        </Text>
      )}
      <Group justify="space-between">
        {!readOnly ? (
          <Button variant="light" size="xs" onClick={() => onChange({ trips: [...values.trips, emptyTrip()] })}>
            Add trip
          </Button>
        ) : (
          <span />
        )}
        <Text size="sm" data-testid="computed-amount">
          {lookups.mileageRate === undefined ? (
            // Until GET /payment-requests/rates answers, the rate is unknown here.
            'Amount: computed from the mileage rate when saved'
          ) : (
            <>
              Amount: <b>{formatCents(cents)}</b> ({formatCents(Math.round(lookups.mileageRate * 100))} per mile)
            </>
          )}
        </Text>
      </Group>
    </>
  );
}
