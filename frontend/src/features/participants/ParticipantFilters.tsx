import { Button, Fieldset, Group, MultiSelect, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { activeFilterCount, type ListFilters } from './listQuery';
import type { ParticipantLookups } from './lookups';
import { codeOptions, idOptions } from './options';

interface Props {
  filters: ListFilters;
  lookups: ParticipantLookups;
  onChange: (patch: Partial<ListFilters>) => void;
  onClear: () => void;
}

const ids = (values: string[]) => values.map(Number);
const strings = (values: number[]) => values.map(String);

/** Every filter GET /participants understands; each change reloads the list from page 1. */
export function ParticipantFilters({ filters, lookups, onChange, onClear }: Props) {
  // The name is typed: wait for a pause before asking the server.
  const [name, setName] = useState(filters.fullName ?? '');
  const [debouncedName] = useDebouncedValue(name, 350);
  useEffect(() => {
    if (debouncedName.trim() !== (filters.fullName ?? '')) onChange({ fullName: debouncedName.trim() || undefined });
    // Only the typed value drives this; the address bar drives the other effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedName]);
  // The address bar changed (Back, Clear): the box shows its name, adjusted while rendering.
  const [shownName, setShownName] = useState(filters.fullName ?? '');
  if (shownName !== (filters.fullName ?? '')) {
    setShownName(filters.fullName ?? '');
    if ((filters.fullName ?? '') !== name.trim()) setName(filters.fullName ?? '');
  }

  const active = activeFilterCount(filters);
  const multi = (label: string, key: 'workplaceSettingIds' | 'languageIds' | 'educationLevelIds' | 'permitLevelIds', items = lookups.workplaceSettings) => (
    <MultiSelect
      label={label}
      placeholder={filters[key].length ? undefined : 'Any'}
      data={idOptions(items, strings(filters[key]))}
      value={strings(filters[key])}
      onChange={(values) => onChange({ [key]: ids(values) })}
      searchable
      clearable
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
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter searches at once, without waiting for the pause.
            if (event.key === 'Enter') onChange({ fullName: name.trim() || undefined });
          }}
        />
        <Select
          label="Mentor program"
          placeholder="Any"
          data={idOptions(lookups.programs, filters.mentorProgramId ? [String(filters.mentorProgramId)] : [])}
          value={filters.mentorProgramId ? String(filters.mentorProgramId) : null}
          onChange={(value) => onChange({ mentorProgramId: value ? Number(value) : undefined })}
          searchable
          clearable
        />
        <Select
          label="Role"
          placeholder="Any"
          data={codeOptions(lookups.roles)}
          value={filters.roleCode ?? null}
          onChange={(value) => onChange({ roleCode: value ?? undefined })}
          clearable
        />
        <Select
          label="Status"
          placeholder="Any"
          data={codeOptions(lookups.statuses)}
          value={filters.status ?? null}
          onChange={(value) => onChange({ status: value ?? undefined })}
          clearable
        />
        <Select
          label="District type"
          placeholder="Any"
          data={codeOptions(lookups.districtTypes)}
          value={filters.districtSetType ?? null}
          onChange={(value) => onChange({ districtSetType: value ?? undefined })}
          clearable
        />
        <NumberInput
          label="District"
          placeholder={filters.districtSetType ? 'Any' : 'Pick a type first'}
          disabled={!filters.districtSetType}
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={filters.districtId ?? ''}
          onChange={(value) => onChange({ districtId: typeof value === 'number' && value > 0 ? value : undefined })}
        />
        {multi('Workplace settings', 'workplaceSettingIds', lookups.workplaceSettings)}
        {multi('Languages', 'languageIds', lookups.languages)}
        {multi('Education levels', 'educationLevelIds', lookups.educationLevels)}
        {multi('Permit levels', 'permitLevelIds', lookups.permitLevels)}
        <Group justify="flex-end" align="flex-end">
          <Button
            variant="subtle"
            disabled={active === 0 && !name}
            onClick={() => {
              setName('');
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
