import { AppShell, Burger, Card, Group, Progress } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useNavigation } from 'react-router';
import { Logo } from '../../components/Logo';
import { MAIN_ID, SkipLink } from '../../components/SkipLink';
import { IdleLogout } from '../IdleLogout';
import { FOOTER_HEIGHT, HEADER_HEIGHT, NAVBAR_WIDTH } from '../../lib/theme';
import { FooterText } from './Footer';
import { NotificationBanners } from './NotificationBanners';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';

/** Signed-in layout: side menu 264 px (a menu button on narrow screens), top bar 68 px, content card, footer. */
export default function MainLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const loading = useNavigation().state === 'loading';
  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={{ height: FOOTER_HEIGHT }}
      // A phone's width goes to the content, not to the frame around it.
      padding={{ base: 'xs', sm: 'lg' }}
    >
      <SkipLink />
      <AppShell.Header>
        {loading && <Progress value={100} animated size="xs" radius={0} pos="absolute" top={0} left={0} right={0} aria-label="Loading the page" />}
        <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" aria-expanded={opened} aria-controls="side-menu" />
            <Logo />
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" data-testid="side-menu" id="side-menu" aria-label="Main menu">
        <SideMenu onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0" id={MAIN_ID} tabIndex={-1}>
        <NotificationBanners />
        {/* Clipped, not hidden: a hidden overflow would make the card a scroll container, and a
            sticky part of a page (the approve screen's decision) would stick to the card. */}
        <Card withBorder shadow="xs" radius="md" padding="lg" className="mp-content-card" data-testid="content-card" style={{ overflow: 'clip' }}>
          <Outlet />
        </Card>
        {/* Mantine's shared portal node, where its menus, option lists and dialogs open: inside the
            main landmark rather than loose in the body, so nothing on screen is outside every
            landmark. Mantine takes the first such node of the document, and this one comes
            before the one it adds to the body. */}
        <div data-portal="true" data-mantine-shared-portal-node="true" />
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
