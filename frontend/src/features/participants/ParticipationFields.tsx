import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Select, SimpleGrid } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { CALENDAR_LABELS } from '../../components/dates';
import type { RefItem } from '../../api/wire';
import { clearable, clearableDate } from '../../lib/clearable';
import { codeOptions, idOptions } from './options';
import type { ParticipationField, ParticipationValues } from './participationForm';

interface Props {
  values: ParticipationValues;
  onChange: (values: ParticipationValues) => void;
  errors: Partial<Record<ParticipationField, string>>;
  programs: RefItem[] | undefined;
  roles: RefItem[] | undefined;
  /** Marks the program, year, role and start as required. */
  required?: boolean;
  /**
   * The participation as a whole may be left out (a new participant's first one): a choice taken
   * there can be emptied again, even while the others make it required.
   */
  optional?: boolean;
}

/** Program, fiscal year, role, college (narrowed to the program's) and dates. */
export function ParticipationFields({ values, onChange, errors, programs, roles, required = true, optional = false }: Props) {
  const programId = values.mentorProgramId ? Number(values.mentorProgramId) : undefined;
  const colleges = useReferenceListQuery(programId ? { path: '/colleges', params: { MentorProgramId: programId } } : skipToken);
  const years = useFiscalYearsQuery();
  const set = (patch: Partial<ParticipationValues>) => onChange({ ...values, ...patch });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
      <Select
        label="Mentor program"
        required={required}
        data={idOptions(programs, values.mentorProgramId ? [values.mentorProgramId] : [])}
        value={values.mentorProgramId}
        // Another program has other colleges: the old choice no longer applies.
        onChange={(value) => set({ mentorProgramId: value, collegeId: value === values.mentorProgramId ? values.collegeId : null })}
        error={errors.mentorProgramId}
        searchable
        {...clearable('Mentor program', optional)}
      />
      <Select
        label="Fiscal year"
        required={required}
        data={(years.data ?? []).map((y) => ({ value: String(y.id), label: y.name }))}
        value={values.fiscalYearId}
        onChange={(value) => set({ fiscalYearId: value })}
        error={errors.fiscalYearId ?? (years.error ? 'Fiscal years could not be loaded.' : undefined)}
        disabled={years.isLoading}
        nothingFoundMessage="No fiscal years yet: an Administrator adds them under Budgets."
        {...clearable('Fiscal year', optional)}
      />
      <Select
        label="Role in program"
        required={required}
        data={codeOptions(roles)}
        value={values.roleCode}
        onChange={(value) => set({ roleCode: value })}
        error={errors.roleCode}
        {...clearable('Role in program', optional)}
      />
      <Select
        label="College"
        placeholder={programId ? 'None' : 'Choose a program first'}
        disabled={!programId}
        data={idOptions(colleges.data, values.collegeId ? [values.collegeId] : [])}
        value={values.collegeId}
        onChange={(value) => set({ collegeId: value })}
        error={errors.collegeId}
        searchable
        {...clearable('College')}
      />
      <DateInput
        ariaLabels={CALENDAR_LABELS}
        label="Start date"
        required={required}
        valueFormat="YYYY-MM-DD"
        placeholder="YYYY-MM-DD"
        value={values.startDate}
        onChange={(value) => set({ startDate: value })}
        error={errors.startDate}
      />
      <DateInput
        ariaLabels={CALENDAR_LABELS}
        label="End date"
        valueFormat="YYYY-MM-DD"
        placeholder="Open"
        {...clearableDate('End date', () => set({ endDate: null }))}
        minDate={values.startDate ?? undefined}
        value={values.endDate}
        onChange={(value) => set({ endDate: value })}
        error={errors.endDate}
      />
    </SimpleGrid>
  );
}
