import { Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState, type FormEvent } from 'react';
import { askAndCancel, SaveError } from '../../components/EditorActions';
import { confirmSaveChanges } from '../../components/confirmDialogs';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import { useCreateRoleMutation, useUpdateRoleMutation, type PermissionInfo, type Role, type RoleBody } from './api';
import { groupPermissions, groupState, resourceLabel, toggleGroup } from './permissionGroups';
import { MountedModal } from '../../components/MountedModal';

/** Create (no `role`) or edit a role: a name and a permission checklist grouped by resource. */
export function RoleFormModal({ role, permissions, onClose }: { role?: Role; permissions: PermissionInfo[]; onClose: () => void }) {
  const initial = useMemo<RoleBody>(() => ({ name: role?.name ?? '', permissions: role?.permissions ?? [] }), [role]);
  const [form, setForm] = useState(initial);
  const selected = useMemo(() => new Set(form.permissions), [form.permissions]);
  const groups = useMemo(() => groupPermissions(permissions), [permissions]);
  const dirty = form.name !== initial.name || [...selected].sort().join() !== [...initial.permissions].sort().join();
  const [create, createState] = useCreateRoleMutation();
  const [update, updateState] = useUpdateRoleMutation();
  const { error, isLoading } = role ? updateState : createState;
  const errors = fieldErrors(error);
  // The server says which permissions the signed-in person may give (the ceiling on rights).
  const grantable = useMemo(() => new Set<string>(permissions.filter((p) => p.grantable).map((p) => p.code)), [permissions]);
  const held = (code: string) => grantable.has(code);
  const someNotHeld = permissions.some((p) => !p.grantable);

  const toggle = (code: string, on: boolean) =>
    setForm((f) => ({ ...f, permissions: permissions.map((p) => p.code).filter((c) => (c === code ? on : f.permissions.includes(c))) }));
  const close = () => void askAndCancel(dirty, onClose);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (role && (!dirty || !(await confirmSaveChanges()))) return;
    const body = { name: form.name.trim(), permissions: form.permissions };
    const result = role ? await update({ id: role.id, ...body }) : await create(body);
    if (result.data) {
      notifications.show({ color: 'green', title: 'Saved', message: `Role ${result.data.name} was ${role ? 'updated' : 'created'}.` });
      onClose();
    }
  };

  return (
    <MountedModal onClose={close} title={role ? `Edit role ${role.name}` : 'New role'} size="xl" centered>
      <form onSubmit={onSubmit} noValidate aria-label={role ? 'Edit role' : 'New role'}>
        <Stack gap="md">
          <SaveError error={error} unshown={unshownErrors(errors, (f) => f === 'name' || f === 'permissions')} />
          <TextInput
            label="Name"
            required
            data-autofocus
            readOnly={role?.isBuiltIn}
            description={role?.isBuiltIn ? 'Built-in roles keep their name.' : undefined}
            value={form.name}
            error={errors.name}
            onChange={(e) => {
              const name = e.currentTarget.value;
              setForm((f) => ({ ...f, name }));
            }}
          />
          <Group justify="space-between">
            <Text fw={600} size="sm">
              Permissions ({form.permissions.length} of {permissions.length})
            </Text>
            {someNotHeld && (
              <Text size="sm" c="dimmed">
                Permissions you do not hold yourself cannot be given or taken away.
              </Text>
            )}
            {errors.permissions && (
              <Text c="red" size="sm">
                {errors.permissions}
              </Text>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" verticalSpacing="sm" data-testid="permission-groups">
            {groups.map((group) => {
              const state = groupState(group, selected);
              const label = resourceLabel(group.resource);
              return (
                <fieldset key={group.resource} aria-label={label} style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, padding: 8, margin: 0 }}>
                  <Checkbox
                    label={<Text fw={600} size="sm">{label}</Text>}
                    aria-label={`All ${label} permissions`}
                    checked={state === 'all'}
                    indeterminate={state === 'some'}
                    disabled={group.permissions.some((p) => !held(p.code))}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setForm((f) => ({ ...f, permissions: toggleGroup(permissions, f.permissions, group, on) }));
                    }}
                  />
                  <Stack gap={8} mt={6} pl="md">
                    {group.permissions.map((p) => (
                      <Checkbox key={p.code} size="sm" label={p.action} aria-label={p.code} checked={selected.has(p.code)} disabled={!held(p.code)} onChange={(e) => toggle(p.code, e.currentTarget.checked)} />
                    ))}
                  </Stack>
                </fieldset>
              );
            })}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {dirty ? 'Cancel Changes' : 'Close'}
            </Button>
            <Button type="submit" loading={isLoading} disabled={role ? !dirty : false}>
              {role ? 'Save Changes' : 'Create role'}
            </Button>
          </Group>
        </Stack>
      </form>
    </MountedModal>
  );
}
