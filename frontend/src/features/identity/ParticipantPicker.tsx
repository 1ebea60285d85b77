import { Anchor, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { useHasPermission } from '../../lib/hooks';
import { useSearchParticipantsQuery, type LinkableParticipant } from './api';

const labelOf = (p: LinkableParticipant) => `${p.fullName} (${p.email})`;

/**
 * The participant a Coordinator's login belongs to: searched by name or e-mail on the server
 * (among the participants the inviter sees), those with a login already shown but not
 * pickable. Without a fitting participant the inviter creates one first.
 */
export function ParticipantPicker({
  value,
  onChange,
  error,
}: {
  value: LinkableParticipant | null;
  onChange: (p: LinkableParticipant | null) => void;
  error?: string;
}) {
  const canCreate = useHasPermission('participant:create');
  const [search, setSearch] = useState(value ? labelOf(value) : '');
  const [typed] = useDebouncedValue(search.trim(), 250);
  const picking = typed.length >= 2 && (!value || typed !== labelOf(value));
  const found = useSearchParticipantsQuery(typed, { skip: !picking });
  const items = found.data?.items ?? [];
  const listed = value && !items.some((p) => p.id === value.id) ? [value, ...items] : items;
  const data = listed.map((p) => ({
    value: String(p.id),
    label: p.identityUserId != null && p.id !== value?.id ? `${labelOf(p)}: has a login` : labelOf(p),
    disabled: p.identityUserId != null,
  }));
  const nothing = !picking
    ? 'Type two letters of a name, or an e-mail'
    : found.isFetching
      ? 'Searching…'
      : found.error
        ? 'The participants could not be searched.'
        : 'No participant matches';

  return (
    <Select
      label="Her participant"
      description={
        <>
          A Coordinator sees the programs her participant coordinates. Search by name or e-mail.{' '}
          {canCreate && (
            <Text span size="xs">
              Not listed?{' '}
              <Anchor component={Link} to="/participant/create" size="xs" underline="always">
                Create the participant
              </Anchor>{' '}
              first, then invite her from here or with “Create login” on her page.
            </Text>
          )}
        </>
      }
      placeholder="Name or e-mail"
      required
      searchable
      data={data}
      value={value ? String(value.id) : null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={nothing}
      error={error}
      onChange={(id) => onChange(listed.find((p) => String(p.id) === id) ?? null)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
