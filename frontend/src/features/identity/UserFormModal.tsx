import { Alert, Button, Group, MultiSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { askAndCancel, SaveError } from '../../components/EditorActions';
import { confirmSaveChanges } from '../../components/confirmDialogs';
import { fieldErrors, unshownErrors } from '../../components/fieldErrors';
import {
  useInvitationTermsQuery,
  useInviteUserMutation,
  useUpdateUserMutation,
  type InvitedUser,
  type LinkableParticipant,
  type Role,
  type User,
  type UserUpdate,
} from './api';
import { InvitationSentDone } from '../../components/InvitationSent';
import { ParticipantPicker } from './ParticipantPicker';
import { needsParticipant } from './invitationRules';
import { selectUserDetails } from '../../api/authSlice';
import { useAppSelector } from '../../lib/hooks';
import { MountedModal } from '../../components/MountedModal';
import { AccountSecurity } from './security/AccountSecurity';
import { UserOutOfOffice } from './outOfOffice/UserOutOfOffice';
import { useReferenceListQuery } from '../../lib/referenceLists';
import { clearable } from '../../lib/clearable';

const FIELDS = ['email', 'firstName', 'lastName', 'roles', 'isActive', 'participantId'];
/** `mentorProgramIds[2]` is shown on the programs field. */
const shown = (field: string) => FIELDS.includes(field) || field.startsWith('mentorProgramIds');

/** Invite (no `user`) or edit a user. Roles keep the order picked: the first is shown and decides administrator status. */
export function UserFormModal({ user, roles, onClose }: { user?: User; roles: Role[]; onClose: () => void }) {
  const me = useAppSelector(selectUserDetails);
  const self = !!user && user.email === me?.email;
  // The server says what lies beyond the signed-in person's rights (the ceiling on rights).
  const guarded = !!user && user.locked;
  const roleOptions = roles.map((r) => ({ value: r.name, label: r.name, disabled: !r.grantable }));
  const initial: Omit<UserUpdate, 'id' | 'mentorProgramIds'> & { mentorProgramIds: number[] } = {
    email: user?.email ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    roles: user?.roles ?? [],
    isActive: user?.isActive ?? true,
    mentorProgramIds: user?.mentorProgramIds ?? [],
  };
  const [form, setForm] = useState(initial);
  const [participant, setParticipant] = useState<LinkableParticipant | null>(null);
  const [invited, setInvited] = useState<InvitedUser | null>(null);
  const terms = useInvitationTermsQuery(undefined, { skip: !!user });
  const dirty = JSON.stringify(form) !== JSON.stringify(initial) || participant !== null;
  const linksParticipant = !user && needsParticipant(form.roles, roles);
  const [invite, inviteState] = useInviteUserMutation();
  const [update, updateState] = useUpdateUserMutation();
  const { error, isLoading } = user ? updateState : inviteState;
  const errors = fieldErrors(error);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  // The programs the caller sees herself: the only ones she may name.
  const programs = useReferenceListQuery('/mentor-programs');
  const programOptions = (programs.data ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  const programsError = Object.entries(errors)
    .filter(([field]) => field.startsWith('mentorProgramIds'))
    .map(([, text]) => text)
    .join('; ');

  const close = () => void askAndCancel(dirty, onClose);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (user) {
      if (!dirty || !(await confirmSaveChanges())) return;
      const result = await update({ id: user.id, ...form });
      if (result.data) {
        notifications.show({ color: 'green', title: 'Saved', message: `${result.data.email} was updated.` });
        onClose();
      }
    } else {
      const { isActive: _ignored, ...body } = form;
      const participantId = linksParticipant ? participant?.id : undefined;
      const result = await invite({ ...body, email: body.email.trim(), participantId });
      // What became of the link is shown in this dialog (mailed, or the link to hand over).
      if (result.data?.invitation) setInvited(result.data);
      else if (result.data) onClose();
    }
  };

  const pick = (p: LinkableParticipant | null) => {
    setParticipant(p);
    // Her login is hers: it carries her participant's e-mail and names.
    if (p) set({ email: p.email, firstName: p.firstName, lastName: p.lastName });
  };

  if (invited?.invitation) {
    return (
      <MountedModal onClose={onClose} title={`${invited.email} is invited`} size="lg" centered>
        <InvitationSentDone email={invited.email} invitation={invited.invitation} onDone={onClose} />
      </MountedModal>
    );
  }

  return (
    <MountedModal onClose={close} title={user ? `Edit ${user.email}` : 'Invite a user'} size="lg" centered>
      <form onSubmit={onSubmit} noValidate aria-label={user ? 'Edit user' : 'Invite user'}>
        <Stack gap="md">
          {!user && terms.data && (
            <Text size="sm" c="dimmed" data-testid="invitation-terms">
              {terms.data.relay
                ? `The user is e-mailed a link to choose a password (valid for ${terms.data.validFor}, once).`
                : `No mail relay is set up: you are given the link to choose a password (valid for ${terms.data.validFor}, once) to hand over yourself.`}
            </Text>
          )}
          <SaveError error={error} unshown={unshownErrors(errors, shown)} />
          <TextInput
            label="E-mail"
            type="email"
            required
            data-autofocus
            value={form.email}
            readOnly={guarded}
            description={guarded ? "Only an Administrator can change an Administrator's e-mail." : undefined}
            error={errors.email}
            onChange={(e) => set({ email: e.currentTarget.value })}
          />
          <SimpleGrid cols={2}>
            <TextInput label="First name" required value={form.firstName} error={errors.firstName} onChange={(e) => set({ firstName: e.currentTarget.value })} />
            <TextInput label="Last name" required value={form.lastName} error={errors.lastName} onChange={(e) => set({ lastName: e.currentTarget.value })} />
          </SimpleGrid>
          <MultiSelect
            label="Roles"
            description={
              self
                ? 'You cannot change your own roles: another administrator must.'
                : guarded
                  ? "Only an Administrator can change an Administrator's roles."
                  : 'The first role is the one shown and decides administrator status. Roles holding permissions you do not hold cannot be given.'
            }
            required
            disabled={self || guarded}
            data={roleOptions}
            value={form.roles}
            error={errors.roles}
            onChange={(roles) => set({ roles })}
            comboboxProps={{ withinPortal: true }}
          />
          {linksParticipant && <ParticipantPicker value={participant} onChange={pick} error={errors.participantId} />}
          <MultiSelect
            label="Programs served"
            description="Programs whose requests this user sees and may approve, besides those of a Coordinator participation."
            {...clearable('Programs served')}
            disabled={guarded}
            data={programOptions}
            value={form.mentorProgramIds.map(String)}
            error={programsError || undefined}
            onChange={(ids) => set({ mentorProgramIds: ids.map(Number) })}
            comboboxProps={{ withinPortal: true }}
          />
          {user && (
            <Switch
              label="Active (may sign in)"
              disabled={guarded}
              checked={form.isActive}
              error={errors.isActive}
              onChange={(e) => set({ isActive: e.currentTarget.checked })}
            />
          )}
          {user && !user.hasPassword && (
            <Alert variant="light" color="blue">
              This user has not chosen a password yet.
            </Alert>
          )}
          {user && !guarded && <UserOutOfOffice userId={user.id} name={`${user.firstName} ${user.lastName}`} />}
          {user && !self && !guarded && <AccountSecurity userId={user.id} email={user.email} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {dirty ? 'Cancel Changes' : 'Close'}
            </Button>
            <Button type="submit" loading={isLoading} disabled={user ? !dirty : false}>
              {user ? 'Save Changes' : 'Send invitation'}
            </Button>
          </Group>
        </Stack>
      </form>
    </MountedModal>
  );
}
