import type { PermissionCode } from '../../lib/permissions';
import { Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { selectPermissions } from '../../api/authSlice';
import { useAppSelector } from '../../lib/hooks';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeading } from '../../components/PageHeading';
import { useIdentityPermissionsQuery, useIdentityRolesQuery, useIdentityUsersQuery } from '../../lib/identityLists';
import { useGetOutboxQuery } from './api';

const SECTIONS: { title: string; to: string; text: string; permission?: PermissionCode }[] = [
  { title: 'General', to: '/settings/general', text: 'Organisation, support e-mail, rates and session lifetimes.' },
  { title: 'Template validation', to: '/settings/template-validation', text: 'Limits checked on every payment request form.' },
  { title: 'Approval rules', to: '/settings/approval-rules', text: "Each form's approval steps: who approves, from which amount.", permission: 'setting:read' },
  { title: 'Notification banner', to: '/settings/notification-banner', text: 'Messages shown to every signed-in user.' },
  { title: 'Sign-on', to: '/settings/sign-on', text: "Sign-in with the agency's directory: new accounts, roles from its groups, who keeps a password.", permission: 'setting:read' },
  { title: 'Security policy', to: '/settings/security', text: 'Roles that must sign in with a passkey or an authenticator app as well as the password.', permission: 'setting:read' },
  { title: 'Block login', to: '/settings/block-login', text: 'Stop Coordinators from signing in, with a message.' },
  { title: 'Audit trail', to: '/settings/audit-log', text: 'Every change and sign-in: who, when, from where, and each field before and after.', permission: 'audit:read' },
  { title: 'Outbox', to: '/settings/outbox', text: 'E-mails MentorPay sends: what waits, what went out, what failed.', permission: 'setting:read' },
  { title: 'Reference lists', to: '/settings/reference', text: 'Funds, expense accounts, mentor programs and approval codes: add, rename, deactivate.' },
  { title: 'Users', to: '/settings/users', text: 'Invite users, change their roles, deactivate them.', permission: 'user:read' },
  { title: 'Roles', to: '/settings/roles', text: 'Roles and the permissions each one holds.', permission: 'role:read' },
];

function Count({ label, value, loading }: { label: string; value?: number; loading: boolean }) {
  return (
    <Stack gap={2} align="center" aria-label={label}>
      {loading ? <Loader size="sm" /> : <Text fz={28} fw={700} data-testid={`count-${label.toLowerCase()}`}>{value ?? '–'}</Text>}
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** The three identity lists load concurrently; each shows its own state. */
function IdentityOverview() {
  const users = useIdentityUsersQuery({ page: 1, size: 1 });
  const roles = useIdentityRolesQuery();
  const permissions = useIdentityPermissionsQuery();
  const error = users.error ?? roles.error ?? permissions.error;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label="Overview">
      <Title order={2} size="h5" mb="sm">
        Overview
      </Title>
      {error ? (
        <ErrorDisplay error={asApiError(error)} />
      ) : (
        <Group justify="space-around">
          <Count label="Users" value={users.data?.totalCount} loading={users.isLoading} />
          <Count label="Roles" value={roles.data?.length} loading={roles.isLoading} />
          <Count label="Permissions" value={permissions.data?.length} loading={permissions.isLoading} />
        </Group>
      )}
    </Card>
  );
}

/** How many mails wait to be sent (the outbox card says it before anyone opens the outbox). */
function WaitingMails() {
  const outbox = useGetOutboxQuery({ Page: '1', Size: '1' });
  if (outbox.error) return null;
  return (
    <Text size="sm" mt={4} data-testid="outbox-waiting-count">
      {outbox.data ? `${outbox.data.waiting} waiting to be sent` : 'Counting the mails waiting…'}
    </Text>
  );
}

export default function SettingsPage() {
  const permissions = useAppSelector(selectPermissions);
  // Cards of pages the user may not open hide themselves.
  const sections = SECTIONS.filter((s) => !s.permission || permissions.includes(s.permission));
  return (
    <Stack gap="lg">
      <PageHeading size="h2">Settings</PageHeading>
      <IdentityOverview />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {sections.map((section) => (
          <Card key={section.to} withBorder radius="md" padding="md" component="section" aria-label={section.title}>
            <Anchor component={Link} to={section.to} fw={600}>
              {section.title}
            </Anchor>
            <Text size="sm" c="dimmed" mt={4}>
              {section.text}
            </Text>
            {section.to === '/settings/outbox' && <WaitingMails />}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
