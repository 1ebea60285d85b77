import { Alert, Badge, Button, Card, Group, Modal, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/wire';
import { useHasPermission } from '../../lib/hooks';
import { DialogActions } from '../../components/EditorActions';
import { asApiError } from '../../components/ErrorDisplay';
import { InvitationSentDone, type Invitation } from '../../components/InvitationSent';
import { useCreateParticipantLoginMutation, type Participant } from './api';

// The role whose participants sign in (a Coordinator user is linked
// to its participant; the server's COORDINATOR_ROLE_CODE).
const COORDINATOR_ROLE: Schemas['ParticipantRole'] = 'Coordinator';

/**
 * "Create login" for a coordinator participant (POST /participants/{id}/identity-user,
 * coordinator:create). Hidden without the permission.
 */
export function ParticipantLogin({ participant }: { participant: Participant }) {
  const allowed = useHasPermission('coordinator:create');
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);
  const [createLogin, state] = useCreateParticipantLoginMutation();
  const [sent, setSent] = useState<Invitation | null>(null);
  const hasLogin = participant.identityUserId != null;

  if (!allowed || (participant.roleCode !== COORDINATOR_ROLE && !hasLogin)) return null;

  const finish = () => {
    setOpened(false);
    setSent(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await createLogin({ id: participant.id, password: password || undefined }).unwrap();
      setPassword('');
      if (created.invitation) {
        // What became of the link (mailed, or to hand over where no relay is set up).
        setSent(created.invitation);
        return;
      }
      notifications.show({ color: 'green', title: 'Login created', message: `${participant.email} can now sign in with the password you set.` });
      setOpened(false);
    } catch (caught) {
      const apiError = asApiError(caught);
      const fieldText = apiError.errors?.password?.join(' ');
      setError(fieldText ? { field: 'password', text: fieldText } : { text: apiError.detail });
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Login">
      <Group justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h4">
            Login
          </Title>
          <Group gap="xs">
            {hasLogin ? (
              <Badge color="green" variant="light">
                Login exists
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                No login
              </Badge>
            )}
            <Text size="sm" c="dimmed">
              {hasLogin
                ? `${participant.email} signs in as a Coordinator.`
                : `${participant.fullName} cannot sign in yet.`}
            </Text>
          </Group>
        </Stack>
        {!hasLogin && <Button onClick={() => setOpened(true)}>Create login</Button>}
      </Group>

      <Modal opened={opened || sent !== null} onClose={finish} title={sent ? 'Login created' : 'Create login'} centered>
        {sent ? (
          <InvitationSentDone email={participant.email} invitation={sent} onDone={finish} />
        ) : (
          <form onSubmit={onSubmit} noValidate aria-label="Create login">
            <Stack gap="md">
              {/* A long e-mail address wraps rather than widening the dialog past a narrow window. */}
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {participant.fullName} will sign in with {participant.email} as a Coordinator. Leave the password empty to e-mail a
                link for setting one.
              </Text>
              <PasswordInput
                label="Password (optional)"
                description="At least 12 characters."
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={error?.field === 'password' ? error.text : undefined}
                autoComplete="new-password"
              />
              {error && !error.field && (
                <Alert color="red" title="No login created" role="alert">
                  {error.text}
                </Alert>
              )}
              <DialogActions submit="Create login" saving={state.isLoading} onCancel={() => setOpened(false)} />
            </Stack>
          </form>
        )}
      </Modal>
    </Card>
  );
}
