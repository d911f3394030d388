import { Anchor, Box, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Logo } from '../../components/Logo';
import { CookieNotice } from './CookieNotice';
import { Footer } from './Footer';

/** Auth and public pages: logo on top, the page, the footer. */
export function PublicLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column', background: 'var(--mantine-color-gray-0)' }}>
      <Group px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', background: 'white' }}>
        <Anchor component={Link} to="/" underline="never">
          <Logo />
        </Anchor>
      </Group>
      <Container size="sm" w="100%" py="xl" px="md" style={{ flex: 1 }} component="main">
        <Outlet />
      </Container>
      <Box style={{ borderTop: '1px solid var(--mantine-color-gray-3)', background: 'white' }}>
        <Footer />
      </Box>
      <CookieNotice />
    </Box>
  );
}
