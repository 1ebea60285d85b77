import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { SaveError } from '../../../components/EditorActions';
import { openConfirm } from '../../../components/confirmDialogs';
import { fieldErrors, unshownErrors } from '../../../components/fieldErrors';
import { QueryStatus } from '../../../components/QueryStatus';
import {
  useGetOutOfOfficeQuery,
  useRemoveOutOfOfficeMutation,
  useSetOutOfOfficeMutation,
  useStandInCandidatesQuery,
  type OutOfOffice,
  type PersonRef,
  type Whose,
} from './api';
import { candidateOptions, personLabel, windowWords } from './outOfOffice';

const FIELDS = ['from', 'to', 'standInUserId'];

/** The form over the window as stored (`stored`, null when none): from, to, the stand-in; Save and Remove. */
function OutOfOfficeForm({ whose, person, stored, onClose }: { whose: Whose; person?: { id: number; name: string }; stored: OutOfOffice | null; onClose: () => void }) {
  const [from, setFrom] = useState(stored?.from ?? '');
  const [to, setTo] = useState(stored?.to ?? '');
  const [standIn, setStandIn] = useState<PersonRef | null>(stored?.standIn ?? null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // Once someone is chosen the picker's text is her label: that is no search, the first 20 are listed.
  const candidates = useStandInCandidatesQuery(standIn && debounced === personLabel(standIn) ? '' : debounced);
  const [save, saving] = useSetOutOfOfficeMutation();
  const [remove, removing] = useRemoveOutOfOfficeMutation();
  const error = saving.error ?? removing.error;
  const errors = fieldErrors(error);
  const options = candidateOptions(candidates.data, standIn, person?.id);
  const who = person ? { subject: person.name, verb: 'is' as const, object: 'them' } : { subject: 'You', verb: 'are' as const, object: 'you' };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    removing.reset();
    const result = await save({ whose, body: { from, to, standInUserId: standIn?.id ?? null } });
    if (result.data) {
      notifications.show({ color: 'green', title: 'Saved', message: windowWords(result.data, who) });
      onClose();
    }
  };
  const onRemove = async () => {
    const sure = await openConfirm({
      title: 'Remove out of office',
      text: person ? `${person.name} will be back: approvals go to them again.` : 'You will be back: approvals come to you again.',
      confirmLabel: 'Remove',
      cancelLabel: 'Keep it',
      danger: true,
    });
    if (!sure) return;
    saving.reset();
    const result = await remove(whose);
    if (!('error' in result)) {
      notifications.show({ color: 'green', title: 'Removed', message: person ? `${person.name} is no longer out of office.` : 'You are no longer out of office.' });
      onClose();
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Out of office">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          From the first day to the last (both included, in the office&apos;s time zone) the stand-in may approve or send back what{' '}
          {person ? `${person.name} could` : 'you could'}, recorded as done on {person ? 'their' : 'your'} behalf, and gets the
          approval e-mails instead.
        </Text>
        {stored && (
          <Alert variant="light" color="blue" data-testid="out-of-office-now">
            {windowWords(stored, who)}
          </Alert>
        )}
        <SaveError error={error} unshown={unshownErrors(errors, (f) => FIELDS.includes(f))} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput type="date" label="First day away" required value={from} error={errors.from} onChange={(e) => setFrom(e.currentTarget.value)} data-autofocus />
          <TextInput type="date" label="Last day away" required value={to} error={errors.to} onChange={(e) => setTo(e.currentTarget.value)} />
        </SimpleGrid>
        <Select
          label="Stand-in"
          description="Someone who may approve requests. Type part of a name or e-mail."
          required
          searchable
          data={options}
          value={standIn ? String(standIn.id) : null}
          searchValue={search}
          onSearchChange={setSearch}
          onChange={(value) => setStandIn(value ? ([standIn, ...(candidates.data ?? [])].find((p) => p && String(p.id) === value) ?? null) : null)}
          nothingFoundMessage={candidates.isFetching ? 'Searching…' : 'Nobody found who may approve'}
          filter={({ options: all }) => all}
          error={errors.standInUserId}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="space-between">
          <div>
            {stored && (
              <Button variant="light" color="red" loading={removing.isLoading} onClick={() => void onRemove()}>
                Remove
              </Button>
            )}
          </div>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isLoading}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Out of office, the caller's own (`whose` 'me', from the user menu) or an administrator's for
 * someone else (`person`, from the user dialog).
 */
export function OutOfOfficeDialog({ whose, person, opened, onClose }: { whose: Whose; person?: { id: number; name: string }; opened: boolean; onClose: () => void }) {
  const query = useGetOutOfOfficeQuery(whose, { skip: !opened, refetchOnMountOrArgChange: true });
  return (
    <Modal opened={opened} onClose={onClose} title={person ? `Out of office: ${person.name}` : 'Out of office'} centered size="lg">
      <QueryStatus isLoading={query.isLoading || query.isFetching} error={query.error}>
        {/* Keyed by what is stored, so the form starts from it after each load. */}
        <OutOfOfficeForm key={JSON.stringify(query.data ?? null)} whose={whose} person={person} stored={query.data ?? null} onClose={onClose} />
      </QueryStatus>
    </Modal>
  );
}
