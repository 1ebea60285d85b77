import { Button, Fieldset, Group, MultiSelect, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useTypedFilter } from '../../components/useTypedFilter';
import { activeFilterCount, listItems, listValue } from '../../components/urlState';
import type { ParticipantFilterValues } from './listQuery';
import type { ParticipantLookups } from './lookups';
import { codeOptions, idOptions } from './options';
import { clearable } from '../../lib/clearable';

interface Props {
  filters: ParticipantFilterValues;
  lookups: ParticipantLookups;
  onChange: (patch: ParticipantFilterValues) => void;
  onClear: () => void;
}

/** Every filter GET /participants understands; each change reloads the list from page 1. */
export function ParticipantFilters({ filters, lookups, onChange, onClear }: Props) {
  // The name is typed: wait for a pause before asking the server.
  const name = useTypedFilter(filters.FullName, (FullName) => onChange({ FullName }));

  const active = activeFilterCount(filters);
  const multi = (label: string, key: 'WorkplaceSettingIds' | 'LanguageIds' | 'EducationLevelIds' | 'PermitLevelIds', items = lookups.workplaceSettings) => (
    <MultiSelect
      label={label}
      placeholder={filters[key] ? undefined : 'Any'}
      data={idOptions(items, listItems(filters[key]))}
      value={listItems(filters[key])}
      onChange={(values) => onChange({ [key]: listValue(values) })}
      searchable
      {...clearable(label)}
      hidePickedOptions
      maxDropdownHeight={260}
    />
  );

  return (
    <Fieldset legend={active ? `Filters (${active} active)` : 'Filters'}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          label="Full name"
          placeholder="Part of the name"
          value={name.text}
          onChange={(event) => name.setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter searches at once, without waiting for the pause.
            if (event.key === 'Enter') name.commit();
          }}
        />
        <Select
          label="Mentor program"
          placeholder="Any"
          data={idOptions(lookups.programs, listItems(filters.MentorProgramId))}
          value={filters.MentorProgramId ?? null}
          onChange={(value) => onChange({ MentorProgramId: value ?? undefined })}
          searchable
          {...clearable('Mentor program')}
        />
        <Select
          label="Role"
          placeholder="Any"
          data={codeOptions(lookups.roles)}
          value={filters.RoleCode ?? null}
          onChange={(value) => onChange({ RoleCode: value ?? undefined })}
          {...clearable('Role')}
        />
        <Select
          label="Status"
          placeholder="Any"
          data={codeOptions(lookups.statuses)}
          value={filters.Status ?? null}
          onChange={(value) => onChange({ Status: value ?? undefined })}
          {...clearable('Status')}
        />
        <Select
          label="District type"
          placeholder="Any"
          data={codeOptions(lookups.districtTypes)}
          value={filters.DistrictSetType ?? null}
          onChange={(value) => onChange({ DistrictSetType: value ?? undefined })}
          {...clearable('District type')}
        />
        <NumberInput
          label="District"
          placeholder={filters.DistrictSetType ? 'Any' : 'Pick a type first'}
          disabled={!filters.DistrictSetType}
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={filters.DistrictId ?? ''}
          onChange={(value) => onChange({ DistrictId: typeof value === 'number' && value > 0 ? String(value) : undefined })}
        />
        {multi('Workplace settings', 'WorkplaceSettingIds', lookups.workplaceSettings)}
        {multi('Languages', 'LanguageIds', lookups.languages)}
        {multi('Education levels', 'EducationLevelIds', lookups.educationLevels)}
        {multi('Permit levels', 'PermitLevelIds', lookups.permitLevels)}
        <Group justify="flex-end" align="flex-end">
          <Button
            variant="subtle"
            disabled={active === 0 && !name.text}
            onClick={() => {
              name.setText('');
              onClear();
            }}
          >
            Clear filters
          </Button>
        </Group>
      </SimpleGrid>
    </Fieldset>
  );
}
