import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { Schemas } from '../api/wire';
import { MountedModal } from './MountedModal';

export type Invitation = Schemas['InvitationSent'];

/**
 * What became of an invitation, in the server's words of its link's life: queued for the mail
 * relay, or, where no relay is set up, the set-password link for the inviter to hand over
 * (the mail went only to the server's log). Shared by the user screens and a participant's
 * "Create login".
 */
export function InvitationSent({ email, invitation }: { email: string; invitation: Invitation }) {
  if (invitation.emailed) {
    return (
      <Alert color="green" title="Invitation sent" role="status">
        A link to choose a password is on its way to {email}. It is valid for {invitation.validFor}, once.
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="The invitation was not e-mailed" role="status">
        No mail relay is set up for MentorPay, so the mail to {email} could not be sent. Give her this link yourself; it is valid for{' '}
        {invitation.validFor}, once, and works only for {email}. Sending the invitation again makes a new link and ends this one.
      </Alert>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label="Set-password link"
          value={invitation.link ?? ''}
          readOnly
          style={{ flex: '1 1 16rem', minWidth: 0 }}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="invitation-link"
        />
        <CopyButton value={invitation.link ?? ''}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Link copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        The link is shown only now.
      </Text>
    </Stack>
  );
}

/** The same with a "Done" button that takes the focus, for the dialog that sent it. */
export function InvitationSentDone({ email, invitation, onDone }: { email: string; invitation: Invitation; onDone: () => void }) {
  // It replaces the form in an open dialog, whose submit button had the focus and is gone.
  const done = useRef<HTMLButtonElement>(null);
  useEffect(() => done.current?.focus(), []);
  return (
    <Stack gap="md">
      <InvitationSent email={email} invitation={invitation} />
      <Group justify="flex-end">
        <Button ref={done} onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/** The same in a dialog of its own, open while mounted. */
export function InvitationSentDialog({ title, email, invitation, onClose }: { title: string; email: string; invitation: Invitation; onClose: () => void }) {
  return (
    <MountedModal onClose={onClose} title={title} size="lg" centered>
      <InvitationSentDone email={email} invitation={invitation} onDone={onClose} />
    </MountedModal>
  );
}
