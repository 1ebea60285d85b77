import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { selectUserDetails } from '../../api/authSlice';
import { logout } from '../../api/session';
import { useAppDispatch, useAppSelector, useHasPermission } from '../../lib/hooks';
import { NotificationsDialog } from '../../features/notifications/NotificationsDialog';
import { SessionsDialog } from '../../features/identity/security/SessionsDialog';
import { TwoStepDialog } from '../../features/identity/security/TwoStepDialog';
import { OutOfOfficeDialog } from '../../features/identity/outOfOffice/OutOfOfficeDialog';

type Dialog = 'notifications' | 'two-step' | 'sessions' | 'out-of-office';

/** Top-bar user menu: e-mail and first role (information only), the user's notifications, out of office, two-step sign-in and sign-ins, and Logout. */
export function UserMenu() {
  const user = useAppSelector(selectUserDetails);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // The dialog opens once the menu has closed and given the focus back to its button, so the
  // dialog takes the focus from there and gives it back there.
  const [asked, setAsked] = useState<Dialog | null>(null);
  const [open, setOpen] = useState<Dialog | null>(null);
  // Only someone who approves has approvals to hand to a stand-in.
  const approves = useHasPermission('request:approve');
  if (!user) return null;

  const onLogout = () => {
    dispatch(logout('user'));
    navigate('/login', { replace: true });
  };
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();

  return (
    <>
      <Menu
        position="bottom-end"
        width={260}
        shadow="md"
        onExitTransitionEnd={() => {
          if (!asked) return;
          setAsked(null);
          setOpen(asked);
        }}
      >
        <Menu.Target>
          {/* Named by what it shows (a speech-input user says the name they see), then what it is. */}
          <UnstyledButton>
            <Group gap="xs" wrap="nowrap">
              <Avatar color="brand" radius="xl" size={36} aria-hidden>
                {initials}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="xs">
                {user.firstName} {user.lastName}
              </Text>
              <VisuallyHidden component="span">User menu</VisuallyHidden>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {/* Information only: a label, not an item, so the keyboard starts on the first action. */}
          <Menu.Label data-testid="user-info">
            <Text size="sm" c="var(--mantine-color-text)">
              {user.email}
            </Text>
            <Text size="xs" c="dimmed">
              {user.roles[0] ?? ''}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item onClick={() => setAsked('notifications')}>Notifications…</Menu.Item>
          {approves && <Menu.Item onClick={() => setAsked('out-of-office')}>Out of office…</Menu.Item>}
          <Menu.Item onClick={() => setAsked('two-step')}>Two-step sign-in…</Menu.Item>
          <Menu.Item onClick={() => setAsked('sessions')}>Where you are signed in…</Menu.Item>
          <Menu.Item color="red" onClick={onLogout}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <NotificationsDialog opened={open === 'notifications'} onClose={() => setOpen(null)} />
      <TwoStepDialog opened={open === 'two-step'} onClose={() => setOpen(null)} />
      <SessionsDialog opened={open === 'sessions'} onClose={() => setOpen(null)} />
      <OutOfOfficeDialog whose="me" opened={open === 'out-of-office'} onClose={() => setOpen(null)} />
    </>
  );
}
