import { Button, Fieldset, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { openConfirm } from '../../../components/confirmDialogs';
import { useEndUserSessionsMutation, useRemoveUserFactorsMutation } from './api';

/** In the user dialog: an administrator's help for a person who lost her phone or her laptop. */
export function AccountSecurity({ userId, email }: { userId: number; email: string }) {
  const [removeFactors, removing] = useRemoveUserFactorsMutation();
  const [endSessions, ending] = useEndUserSessionsMutation();
  const onRemove = async () => {
    const sure = await openConfirm({
      title: 'Remove second factor',
      text: `${email} will sign in with the password alone (or set up a new factor if the role requires one), and every sign-in of theirs ends now.`,
      confirmLabel: 'Remove second factor',
      cancelLabel: 'Keep it',
      danger: true,
    });
    if (!sure) return;
    const result = await removeFactors(userId);
    if (!('error' in result)) notifications.show({ color: 'green', title: 'Second factor removed', message: `${email} is signed out everywhere.` });
  };
  const onEnd = async () => {
    const sure = await openConfirm({
      title: 'End all sessions',
      text: `Every sign-in of ${email} ends now, on every device.`,
      confirmLabel: 'End all sessions',
      cancelLabel: 'Keep them',
      danger: true,
    });
    if (!sure) return;
    const result = await endSessions(userId);
    if (!('error' in result)) notifications.show({ color: 'green', title: 'Sessions ended', message: `${email} is signed out everywhere.` });
  };
  return (
    <Fieldset legend="Sign-in security" variant="filled">
      <Text size="sm" mb="xs">
        For a lost phone or a device left signed in.
      </Text>
      <Group>
        <Button variant="light" color="red" size="xs" loading={removing.isLoading} onClick={() => void onRemove()}>
          Remove second factor
        </Button>
        <Button variant="light" color="red" size="xs" loading={ending.isLoading} onClick={() => void onEnd()}>
          End all sessions
        </Button>
      </Group>
    </Fieldset>
  );
}
