import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useNavigate } from 'react-router';
import { selectUserDetails } from '../../api/authSlice';
import { logout } from '../../api/session';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';

/** Top-bar user menu: e-mail and first role (information only), and Logout. */
export function UserMenu() {
  const user = useAppSelector(selectUserDetails);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  if (!user) return null;

  const onLogout = () => {
    dispatch(logout('user'));
    navigate('/login', { replace: true });
  };
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();

  return (
    <Menu position="bottom-end" width={260} shadow="md">
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
        {/* Information only: disabled, but kept fully legible. */}
        <Menu.Item disabled data-testid="user-info" style={{ opacity: 1, cursor: 'default' }}>
          <Text size="sm" c="var(--mantine-color-text)">
            {user.email}
          </Text>
          <Text size="xs" c="dimmed">
            {user.roles[0] ?? ''}
          </Text>
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={onLogout}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
