import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { askAndCancel, SaveError } from '../../components/EditorActions';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { useCreateFiscalYearMutation } from './api';
import { MountedModal } from '../../components/MountedModal';

const EMPTY = { name: '', startDate: '', endDate: '' };

/** New fiscal year (no overlaps with existing years; the server checks and names the field). */
export function FiscalYearModal({ onClose }: { onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const dirty = JSON.stringify(form) !== JSON.stringify(EMPTY);
  const [create, { isLoading, error }] = useCreateFiscalYearMutation();
  const errors = fieldErrors(error);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const close = () => void askAndCancel(dirty, onClose);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ ...form, name: form.name.trim() });
    if (result.data) {
      notifications.show({ color: 'green', title: 'Fiscal year created', message: `${result.data.name} can now be budgeted.` });
      onClose();
    }
  };

  return (
    <MountedModal onClose={close} title="New fiscal year" centered>
      <form onSubmit={onSubmit} noValidate aria-label="New fiscal year">
        <Stack gap="md">
          <SaveError error={error} unshown={unshownErrors(errors, (f) => f in EMPTY)} />
          <TextInput label="Name" placeholder="FY 2026-27" required data-autofocus value={form.name} error={errors.name} onChange={(e) => set({ name: e.currentTarget.value })} />
          <SimpleGrid cols={2}>
            <TextInput label="First day" type="date" required value={form.startDate} error={errors.startDate} onChange={(e) => set({ startDate: e.currentTarget.value })} />
            <TextInput label="Last day" type="date" required value={form.endDate} error={errors.endDate} onChange={(e) => set({ endDate: e.currentTarget.value })} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {dirty ? 'Cancel Changes' : 'Close'}
            </Button>
            <Button type="submit" loading={isLoading}>
              Create fiscal year
            </Button>
          </Group>
        </Stack>
      </form>
    </MountedModal>
  );
}
