import { Badge, Button, Center, Group, Loader, MultiSelect, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { formatDateTime } from '../../components/dates';
import { UnseenHeader } from '../../components/TableHead';
import { InvitationSentDialog } from '../../components/InvitationSent';
import { EmptyRow } from '../../components/EmptyRow';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { selectUserDetails } from '../../api/authSlice';
import { useAppSelector, useHasPermission } from '../../lib/hooks';
import { openConfirm } from '../../components/confirmDialogs';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageCard } from '../../components/PageCard';
import { RowActions, RowButton } from '../../components/RowActions';
import { listItems, listValue, PAGE_SIZES } from '../../components/urlState';
import { useTypedFilter } from '../../components/useTypedFilter';
import { useUrlState } from '../../components/useUrlState';
import { useIdentityRolesQuery, useIdentityUsersQuery } from '../../lib/identityLists';
import { useDeactivateUserMutation, useResendInvitationMutation, type InvitedUser, type User } from './api';
import { UserFormModal } from './UserFormModal';
import { TableScroll } from '../../components/TableScroll';
import { clearable } from '../../lib/clearable';

// GET /identity/users' filters, kept in the address bar like every list (role names may hold spaces: text).
const USER_FILTERS = { Email: 'text', Roles: 'text' } as const;

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

  const url = useUrlState(USER_FILTERS);
  const { page, size } = url.table;
  const roles = listItems(url.values.Roles);
  const email = useTypedFilter(url.values.Email, (Email) => url.setFilters({ Email }), 300);
  const users = useIdentityUsersQuery({ page, size, email: url.values.Email ?? '', roles });
  const roleList = useIdentityRolesQuery(undefined, { skip: !canReadRoles });
  const roleNames = (roleList.data ?? []).map((r) => r.name);
  const [deactivate] = useDeactivateUserMutation();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [resend] = useResendInvitationMutation();
  const [resent, setResent] = useState<InvitedUser | null>(null);

  const onResend = async (user: User) => {
    const ok = await openConfirm({
      title: 'Send the invitation again',
      text: `Send ${user.email} a new link to choose a password? The link sent before stops working.`,
      confirmLabel: 'Send again',
      cancelLabel: 'Keep the old link',
    });
    if (!ok) return;
    const result = await resend(user.id);
    if (result.data) setResent(result.data);
  };

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
          value={email.text}
          onChange={(e) => email.setText(e.currentTarget.value)}
          w={280}
        />
        {canReadRoles && (
          <MultiSelect
            label="Roles"
            placeholder={roles.length ? undefined : 'Any role'}
            data={roleNames}
            value={roles}
            onChange={(v) => url.setFilters({ Roles: listValue(v) })}
            {...clearable('Roles')}
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
          <TableScroll label="Users" minWidth={900}>
            <Table striped highlightOnHover withTableBorder aria-label="Users" data-testid="users-table" opacity={users.isFetching ? 0.6 : 1}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail ↑</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Roles</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  <UnseenHeader>Actions</UnseenHeader>
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
                    <Table.Td>{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : 'Never'}</Table.Td>
                    <RowActions gap={4} justify="flex-end">
                      {canEdit && canReadRoles && (
                        <RowButton variant="subtle" rowName={user.email} onClick={() => setEditing(user)}>Edit</RowButton>
                      )}
                      {canInvite && user.isActive && !user.hasPassword && !user.locked && (
                        <RowButton variant="subtle" rowName={user.email} onClick={() => onResend(user)}>
                          Send invitation again
                        </RowButton>
                      )}
                      {canDeactivate && user.isActive && user.email !== me?.email && (
                        <RowButton variant="subtle" color="red" rowName={user.email} onClick={() => onDeactivate(user)}>Deactivate</RowButton>
                      )}
                    </RowActions>
                  </Table.Tr>
                ))}
                {users.data?.items.length === 0 && (
                  <EmptyRow columns={6}>No users match these filters.</EmptyRow>
                )}
              </Table.Tbody>
            </Table>
          </TableScroll>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {total} user{total === 1 ? '' : 's'}
            </Text>
            <Group gap="sm">
              <Select
                aria-label="Rows per page"
                data={PAGE_SIZES.map(String)}
                value={String(size)}
                onChange={(v) => url.setSize(Number(v ?? size))}
                allowDeselect={false}
                w={80}
              />
              <Pagination total={pages} value={page} onChange={url.setPage} size="sm" />
            </Group>
          </Group>
        </Stack>
      )}
      {resent?.invitation && (
        <InvitationSentDialog title="Invitation sent again" email={resent.email} invitation={resent.invitation} onClose={() => setResent(null)} />
      )}
      {editing && (
        <UserFormModal user={editing === 'new' ? undefined : editing} roles={roleList.data ?? []} onClose={() => setEditing(null)} />
      )}
    </PageCard>
  );
}
