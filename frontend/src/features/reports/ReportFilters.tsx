import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useGetReportPayeesQuery } from './api';
import type { RefItem } from '../../api/wire';
import { FilterFooter } from '../../components/FilterFooter';
import { inactiveMark } from '../../components/statusMark';
import { codedName } from '../../lib/labels';
import { clearable } from '../../lib/clearable';

// The filters of a report as pickers (never raw ids): each shows only when the report takes it
// (its catalogue `filters`), and loads its list only then. Values are the address bar's strings.

type Values = Record<string, string | undefined>;
type OnChange = (patch: Values) => void;

interface Props {
  /** The filter names the report takes (a subset of reportQuery's FILTER_KINDS). */
  names: readonly string[];
  values: Values;
  onChange: OnChange;
  onClear: () => void;
}

const options = <T extends Pick<RefItem, 'id' | 'name'>>(items: T[] | undefined, label: (i: T) => string = (i) => i.name, value: (i: T) => string = (i) => String(i.id)) =>
  (items ?? []).map((i) => ({ value: value(i), label: label(i) }));

function Picker({
  name,
  label,
  data,
  values,
  onChange,
  failed,
  placeholder = 'All',
  extraPatch,
}: {
  name: string;
  label: string;
  data: { value: string; label: string }[];
  values: Values;
  onChange: OnChange;
  failed?: boolean;
  placeholder?: string;
  /** Filters that depend on this one and must be cleared with it. */
  extraPatch?: Values;
}) {
  const value = values[name] ?? null;
  // A value from a shared link that is not (yet) in the list still shows, as itself.
  const shown = value && !data.some((d) => d.value === value) ? [...data, { value, label: `#${value}` }] : data;
  return (
    <Select
      label={label}
      placeholder={failed ? 'Could not be loaded' : placeholder}
      data={shown}
      value={value}
      onChange={(v) => onChange({ [name]: v ?? undefined, ...extraPatch })}
      error={failed ? 'This list could not be loaded.' : undefined}
      {...clearable(label)}
      searchable
      nothingFoundMessage="Nothing found"
    />
  );
}

export function ReportFilters({ names, values, onChange, onClear }: Props) {
  const has = (n: string) => names.includes(n);
  const programs = useReferenceListQuery('/mentor-programs', { skip: !has('MentorProgramId') });
  const years = useFiscalYearsQuery(undefined, { skip: !has('FiscalYearId') });
  const funds = useReferenceListQuery('/funds', { skip: !has('FundId') });
  const types = useReferenceListQuery('/payment-requests/types', { skip: !has('PaymentRequestType') });
  const codes = useReferenceListQuery({ path: '/approval-codes', params: { PaymentRequestType: values.PaymentRequestType } }, { skip: !has('ApprovalCodeId') });
  const payees = useGetReportPayeesQuery(values.FiscalYearId, { skip: !has('PayeeId') });
  const roles = useReferenceListQuery('/participants/roles', { skip: !has('RoleCode') });
  const regions = useReferenceListQuery('/caucus-regions', { skip: !has('CaucusRegionId') });

  const date = (name: string, label: string, min?: string) =>
    has(name) && (
      <TextInput
        key={name}
        type="date"
        label={label}
        value={values[name] ?? ''}
        min={min}
        onChange={(e) => onChange({ [name]: e.currentTarget.value || undefined })}
      />
    );

  const fields: ReactNode[] = [
    has('PaymentRequestType') && (
      <Picker
        key="PaymentRequestType"
        name="PaymentRequestType"
        label="Form type"
        data={options(types.data, (t) => `${t.code} ${t.name}`, (t) => t.code ?? String(t.id))}
        values={values}
        onChange={onChange}
        failed={Boolean(types.error)}
        // Approval codes belong to one form type.
        extraPatch={has('ApprovalCodeId') ? { ApprovalCodeId: undefined } : undefined}
      />
    ),
    has('MentorProgramId') && (
      <Picker key="MentorProgramId" name="MentorProgramId" label="Mentor program" data={options(programs.data)} values={values} onChange={onChange} failed={Boolean(programs.error)} />
    ),
    has('FiscalYearId') && (
      <Picker key="FiscalYearId" name="FiscalYearId" label="Fiscal year" data={options(years.data)} values={values} onChange={onChange} failed={Boolean(years.error)} />
    ),
    has('FundId') && <Picker key="FundId" name="FundId" label="Fund" data={options(funds.data)} values={values} onChange={onChange} failed={Boolean(funds.error)} />,
    has('ApprovalCodeId') && (
      <Picker
        key="ApprovalCodeId"
        name="ApprovalCodeId"
        label="Approval code"
        data={options(codes.data, codedName)}
        values={values}
        onChange={onChange}
        failed={Boolean(codes.error)}
      />
    ),
    has('PayeeId') && (
      <Picker
        key="PayeeId"
        name="PayeeId"
        label="Payee"
        data={(payees.data ?? []).map((p) => ({ value: String(p.id), label: `${p.fullName}${inactiveMark(p.status)}` }))}
        values={values}
        onChange={onChange}
        failed={Boolean(payees.error)}
        placeholder="Anyone approved"
      />
    ),
    has('RoleCode') && (
      <Picker
        key="RoleCode"
        name="RoleCode"
        label="Role"
        data={options(roles.data, (r) => r.name, (r) => r.code ?? String(r.id))}
        values={values}
        onChange={onChange}
        failed={Boolean(roles.error)}
      />
    ),
    has('CaucusRegionId') && (
      <Picker key="CaucusRegionId" name="CaucusRegionId" label="Caucus region" data={options(regions.data)} values={values} onChange={onChange} failed={Boolean(regions.error)} />
    ),
    has('DistrictId') && (
      <TextInput
        key="DistrictId"
        label="District number"
        inputMode="numeric"
        placeholder="Any"
        value={values.DistrictId ?? ''}
        onChange={(e) => {
          const v = e.currentTarget.value.replace(/\D/g, '').replace(/^0+/, '');
          onChange({ DistrictId: v || undefined });
        }}
      />
    ),
    date('StartDate', 'Approved from'),
    date('EndDate', 'Approved until', values.StartDate),
    date('UpdatedAt', 'Changed on or after'),
  ].filter(Boolean);

  if (fields.length === 0) return null;
  const active = names.some((n) => values[n]);
  return (
    <form role="search" aria-label="Report filters" onSubmit={(e) => e.preventDefault()}>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 4 }} spacing="sm">
        {fields}
      </SimpleGrid>
      <FilterFooter note={names.includes('StartDate') ? 'Dates are inclusive, in your local time.' : ''} active={active} onClear={onClear} />
    </form>
  );
}
