import { Box, Card, Container, Group } from '@mantine/core';
import { Outlet, useMatches } from 'react-router';
import { Logo } from '../../components/Logo';
import { PageHeading } from '../../components/PageHeading';
import { MAIN_ID, SkipLink } from '../../components/SkipLink';
import { HEADER_HEIGHT } from '../../lib/theme';
import { FooterText } from './Footer';

/** Route `handle` of public pages: the centred title above the card. */
export interface PublicPageHandle {
  title: string;
}

/** Signed-out layout: logo header, centred title, card, footer. */
export function PublicLayout() {
  const matches = useMatches();
  const title = matches.map((m) => (m.handle as PublicPageHandle | undefined)?.title).filter(Boolean).pop();
  return (
    <Box mih="100vh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box component="header" h={HEADER_HEIGHT} px="lg" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group h="100%">
          <Logo />
        </Group>
      </Box>
      <Container component="main" id={MAIN_ID} tabIndex={-1} size={460} w="100%" py={48} style={{ flex: 1 }}>
        {title && (
          <PageHeading ta="center" size="h2" mb="lg">
            {title}
          </PageHeading>
        )}
        <Card withBorder shadow="sm" radius="md" padding="xl">
          <Outlet />
        </Card>
      </Container>
      <Box component="footer" py="md">
        <FooterText />
      </Box>
    </Box>
  );
}
