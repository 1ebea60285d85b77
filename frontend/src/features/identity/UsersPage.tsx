import { Badge, Button, Center, Group, Loader, MultiSelect, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { EmptyRow } from '../../components/EmptyRow';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import dayjs from 'dayjs';
import { useState } from 'react';
import { selectUserDetails } from '../../api/authSlice';
import { useAppSelector, useHasPermission } from '../../lib/hooks';
import { openConfirm } from '../../components/confirmDialogs';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageCard } from '../../components/PageCard';
import { useIdentityRolesQuery, useIdentityUsersQuery } from '../../lib/identityLists';
import { useDeactivateUserMutation, type User } from './api';
import { UserFormModal } from './UserFormModal';

const PAGE_SIZES = ['10', '25', '50', '100'];

function Status({ user }: { user: User }) {
  if (!user.isActive) return <Badge color="gray">Inactive</Badge>;
  if (!user.hasPassword) return <Badge color="yellow">Invited</Badge>;
  return <Badge color="green">Active</Badge>;
}

/** Users, paged on the server (ordered by e-mail there), filtered by e-mail and roles. */
export default function UsersPage() {
  const me = useAppSelector(selectUserDetails);
  const canInvite = useHasPermission('user:create');
  const canEdit = useHasPermission('user:edit');
  const canDeactivate = useHasPermission('user:delete');
  const canReadRoles = useHasPermission('role:read');

  const [page, setPage] = useState(1);
  const [size, setSize] = useState(25);
  const [email, setEmail] = useState('');
  const [roles, setRoles] = useState<string[]>([]);
  const [debouncedEmail] = useDebouncedValue(email.trim(), 300);
  const users = useIdentityUsersQuery({ page, size, email: debouncedEmail, roles });
  const roleList = useIdentityRolesQuery(undefined, { skip: !canReadRoles });
  const roleNames = (roleList.data ?? []).map((r) => r.name);
  const [deactivate] = useDeactivateUserMutation();
  const [editing, setEditing] = useState<User | 'new' | null>(null);

  const onDeactivate = async (user: User) => {
    const ok = await openConfirm({
      title: 'Deactivate user',
      text: `Deactivate ${user.email}? They can no longer sign in; their history is kept.`,
      confirmLabel: 'Deactivate',
      cancelLabel: 'Keep',
      danger: true,
    });
    if (!ok) return;
    const result = await deactivate(user.id);
    if (!result.error) notifications.show({ color: 'green', title: 'Deactivated', message: `${user.email} can no longer sign in.` });
  };

  const total = users.data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));

  return (
    <PageCard
      title="Users"
      actions={
        canInvite && (
          <Button onClick={() => setEditing('new')} disabled={!canReadRoles}>
            Invite user
          </Button>
        )
      }
    >
      <Group align="flex-end" gap="md">
        <TextInput
          label="Email"
          placeholder="Part of the e-mail"
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            setPage(1);
          }}
          w={280}
        />
        {canReadRoles && (
          <MultiSelect
            label="Roles"
            placeholder={roles.length ? undefined : 'Any role'}
            data={roleNames}
            value={roles}
            onChange={(v) => {
              setRoles(v);
              setPage(1);
            }}
            clearable
            w={320}
          />
        )}
      </Group>
      {users.error ? (
        <ErrorDisplay error={asApiError(users.error)} />
      ) : users.isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover withTableBorder data-testid="users-table" opacity={users.isFetching ? 0.6 : 1}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail ↑</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Roles</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data?.items.map((user) => (
                  <Table.Tr key={user.id} data-email={user.email}>
                    <Table.Td>{user.email}</Table.Td>
                    <Table.Td>
                      {user.firstName} {user.lastName}
                    </Table.Td>
                    <Table.Td>{user.roles.join(', ') || '–'}</Table.Td>
                    <Table.Td>
                      <Status user={user} />
                    </Table.Td>
                    <Table.Td>{user.lastLoginAt ? dayjs(user.lastLoginAt).format('YYYY-MM-DD HH:mm') : 'Never'}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {canEdit && canReadRoles && (
                          <Button size="xs" variant="subtle" onClick={() => setEditing(user)} aria-label={`Edit ${user.email}`}>
                            Edit
                          </Button>
                        )}
                        {canDeactivate && user.isActive && user.email !== me?.email && (
                          <Button size="xs" variant="subtle" color="red" onClick={() => onDeactivate(user)} aria-label={`Deactivate ${user.email}`}>
                            Deactivate
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
                {users.data?.items.length === 0 && (
                  <EmptyRow columns={6}>No users match these filters.</EmptyRow>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {total} user{total === 1 ? '' : 's'}
            </Text>
            <Group gap="sm">
              <Select
                aria-label="Rows per page"
                data={PAGE_SIZES}
                value={String(size)}
                onChange={(v) => {
                  setSize(Number(v ?? 25));
                  setPage(1);
                }}
                allowDeselect={false}
                w={80}
              />
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          </Group>
        </Stack>
      )}
      {editing && (
        <UserFormModal user={editing === 'new' ? undefined : editing} roleNames={roleNames} onClose={() => setEditing(null)} />
      )}
    </PageCard>
  );
}
