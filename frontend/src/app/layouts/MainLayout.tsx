import { AppShell, Burger, Card, Group, Progress } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useNavigation } from 'react-router';
import { Logo } from '../../components/Logo';
import { IdleLogout } from '../idle';
import { HEADER_HEIGHT, NAVBAR_WIDTH } from '../../lib/theme';
import { FooterText } from './Footer';
import { NotificationBanners } from './NotificationBanners';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';

/** Signed-in layout (SPEC §2): side menu 264 px, top bar 68 px, content card, footer. */
export function MainLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const loading = useNavigation().state === 'loading';
  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={{ height: 40 }}
      padding="lg"
    >
      <AppShell.Header>
        {loading && <Progress value={100} animated size="xs" radius={0} pos="absolute" top={0} left={0} right={0} />}
        <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle menu" />
            <Logo />
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" data-testid="side-menu">
        <SideMenu onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <NotificationBanners />
        <Card withBorder shadow="xs" radius="md" padding="lg" data-testid="content-card">
          <Outlet />
        </Card>
      </AppShell.Main>
      <AppShell.Footer>
        <Group h="100%" justify="center">
          <FooterText />
        </Group>
      </AppShell.Footer>
      <IdleLogout />
    </AppShell>
  );
}
