import { Badge, Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { TableScroll } from '../../../components/TableScroll';
import { formatDateTime } from '../../../components/dates';
import { QueryStatus } from '../../../components/QueryStatus';
import { useEndOtherSessionsMutation, useEndSessionMutation, useGetMySessionsQuery, type Session } from './api';

/** A browser's name from its user agent, roughly (the full text is in the title). */
export function browserName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const known: [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ];
  const name = known.find(([re]) => re.test(userAgent))?.[1] ?? 'Other browser';
  const os = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Linux/.test(userAgent) ? 'Linux' : null;
  return os ? `${name} on ${os}` : name;
}

function Row({ s }: { s: Session }) {
  const [end, ending] = useEndSessionMutation();
  const browser = browserName(s.userAgent);
  return (
    <Table.Tr data-testid="session-row">
      <Table.Td title={s.userAgent ?? undefined}>
        {browser} {s.current && <Badge variant="light">This one</Badge>}
      </Table.Td>
      <Table.Td>{s.ip ?? '—'}</Table.Td>
      <Table.Td>{formatDateTime(s.startedAt)}</Table.Td>
      <Table.Td>{formatDateTime(s.lastUsedAt)}</Table.Td>
      <Table.Td>
        {!s.current && (
          <Button size="xs" variant="light" color="red" loading={ending.isLoading} onClick={() => void end(s.id)} aria-label={`End the sign-in on ${browser} from ${s.ip ?? 'an unknown address'}`}>
            End
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The user menu's "Where you are signed in": each sign-in, with End and "Sign out everywhere else". */
export function SessionsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const sessions = useGetMySessionsQuery(undefined, { skip: !opened, refetchOnMountOrArgChange: true });
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <Modal opened={opened} onClose={onClose} title="Where you are signed in" centered size="xl">
      <QueryStatus isLoading={sessions.isLoading} error={sessions.error}>
        <Stack gap="md">
          <TableScroll label="Your sign-ins" minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Browser</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(sessions.data ?? []).map((s) => (
                  <Row key={s.id} s={s} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
          <Text size="xs" c="dimmed">
            “Last used” is when the sign-in last renewed itself (every few minutes while it is in use).
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              Close
            </Button>
            <Button color="red" variant="light" disabled={others === 0} loading={endingOthers.isLoading} onClick={() => void endOthers()}>
              Sign out everywhere else
            </Button>
          </Group>
        </Stack>
      </QueryStatus>
    </Modal>
  );
}
