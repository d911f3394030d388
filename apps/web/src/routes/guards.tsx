/** Route guards: who may see what (accounts.md §2, §6). */
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { canOpenAdmin, landingPath, useMe } from '../features/auth/session';
import { LOADING_ATTR } from '../first-screen/takeover';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" {...{ [LOADING_ATTR]: true }}>
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

function SessionError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Text>{t('common.serverUnavailable')}</Text>
        <Button onClick={retry}>{t('common.retry')}</Button>
      </Stack>
    </Center>
  );
}

/** `/auth/login?redirect=<path+query>`; plain `/` goes to login without the parameter. */
export function loginPathFor(pathname: string, search: string): string {
  if (pathname === '/' && !search) return '/auth/login';
  return `/auth/login?redirect=${encodeURIComponent(pathname + search)}`;
}

/** Signed-in, verified and past the two-factor step. */
export function RequireUser() {
  const { data: me, isPending, isError, refetch } = useMe();
  const location = useLocation();
  if (isPending) return <FullPageLoader />;
  if (isError) return <SessionError retry={() => void refetch()} />;
  if (!me) return <Navigate to={loginPathFor(location.pathname, location.search)} replace />;
  if (me.twoFactorPending) {
    return <Navigate to={`/auth/otp?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (!me.emailVerified) return <Navigate to="/auth/verify-email" replace />;
  return <Outlet />;
}

/** Login and register: a fully signed-in user is sent to their landing page instead. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  const [params] = useSearchParams();
  if (isPending) return <FullPageLoader />;
  if (me && !me.twoFactorPending && me.emailVerified) return <Navigate to={landingPath(me, params.get('redirect'))} replace />;
  return <>{children}</>;
}

/** /admin: ADMIN, or a POWER_USER with at least one permitted page; others go to their dashboard. */
export function RequireAdminArea() {
  const { data: me } = useMe();
  if (!canOpenAdmin(me)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

/** / → /dashboard when signed in, else /auth/login without a redirect parameter. */
export function RootRedirect() {
  const { data: me, isPending } = useMe();
  if (isPending) return <FullPageLoader />;
  if (!me) return <Navigate to="/auth/login" replace />;
  if (me.twoFactorPending) return <Navigate to="/auth/otp" replace />;
  if (!me.emailVerified) return <Navigate to="/auth/verify-email" replace />;
  return <Navigate to="/dashboard" replace />;
}
