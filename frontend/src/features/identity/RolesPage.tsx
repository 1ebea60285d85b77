import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { ScrollWhenNarrow } from '../../components/TableScroll';
import { UnseenHeader } from '../../components/TableHead';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { openConfirm } from '../../components/confirmDialogs';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { RowActions, RowButton } from '../../components/RowActions';
import { useIdentityPermissionsQuery, useIdentityRolesQuery } from '../../lib/identityLists';
import { useDeleteRoleMutation, type Role } from './api';
import { RoleFormModal } from './RoleFormModal';

/** Roles and their permissions; built-in roles (Administrator, Coordinator) cannot be deleted or renamed. */
export default function RolesPage() {
  const canCreate = useHasPermission('role:create');
  const canEdit = useHasPermission('role:edit');
  const canDelete = useHasPermission('role:delete');
  const canReadPermissions = useHasPermission('permission:read');
  const roles = useIdentityRolesQuery();
  const permissions = useIdentityPermissionsQuery(undefined, { skip: !canReadPermissions });
  const [deleteRole] = useDeleteRoleMutation();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const ready = !!permissions.data;

  const onDelete = async (role: Role) => {
    const ok = await openConfirm({
      title: 'Delete role',
      text: `Delete the role ${role.name}? A role still held by users cannot be deleted.`,
      confirmLabel: 'Delete',
      cancelLabel: 'Keep',
      danger: true,
    });
    if (!ok) return;
    const result = await deleteRole(role.id);
    if (!result.error) notifications.show({ color: 'green', title: 'Deleted', message: `Role ${role.name} was deleted.` });
  };

  return (
    <PageCard
      title="Roles"
      actions={
        canCreate && (
          <Button onClick={() => setEditing('new')} disabled={!ready}>
            New role
          </Button>
        )
      }
    >
      <QueryStatus isLoading={roles.isLoading} error={roles.error}>
        <ScrollWhenNarrow label="Roles" minWidth={560}>
        <Table striped highlightOnHover withTableBorder data-testid="roles-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Permissions</Table.Th>
              <UnseenHeader>Actions</UnseenHeader>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {roles.data?.map((role) => (
              <Table.Tr key={role.id} data-role={role.name}>
                <Table.Td>
                  <Group gap="xs">
                    <Text fw={500}>{role.name}</Text>
                    {role.isBuiltIn && (
                      <Badge size="sm" variant="light">
                        Built-in
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  {role.permissions.length}
                  {permissions.data ? ` of ${permissions.data.length}` : ''}
                </Table.Td>
                <RowActions gap={4} justify="flex-end">
                  {canEdit && ready && (
                    <RowButton variant="subtle" rowName={role.name} onClick={() => setEditing(role)}>Edit</RowButton>
                  )}
                  {canDelete && !role.isBuiltIn && (
                    <RowButton variant="subtle" color="red" rowName={role.name} onClick={() => onDelete(role)}>Delete</RowButton>
                  )}
                </RowActions>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        </ScrollWhenNarrow>
      </QueryStatus>
      {editing && permissions.data && (
        <RoleFormModal role={editing === 'new' ? undefined : editing} permissions={permissions.data} onClose={() => setEditing(null)} />
      )}
    </PageCard>
  );
}
