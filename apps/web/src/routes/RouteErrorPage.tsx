import { Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { claimChunkReload, isChunkLoadError } from './chunkReload';

/**
 * Whether this error reloads the app, decided once per error: every render of it (one React discards included)
 * gets the same answer, so the one reload is neither used up nor claimed twice.
 */
const decided = new WeakMap<object, boolean>();
function reloadDecision(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return claimChunkReload(window.sessionStorage);
  if (!decided.has(error)) decided.set(error, claimChunkReload(window.sessionStorage));
  return decided.get(error)!;
}

/**
 * The error element of every route: instead of React Router's developer page, a screen whose code failed to load
 * reloads the app once (a new build was deployed), and any other failure (or a second load failure) shows a
 * short explanation with a reload button.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const reloading = chunk && reloadDecision(error);
  useEffect(() => {
    if (reloading) window.location.reload();
  }, [reloading]);
  if (reloading)
    return (
      <Center p="xl">
        <Loader aria-label={t('common.routeError.reloading')} />
      </Center>
    );
  return (
    <Center p="md" mih="60vh">
      <Paper withBorder p="lg" maw={520} w="100%" role="alert" data-testid="route-error">
        <Stack gap="sm">
          <Title order={1} size="h3">
            {t(chunk ? 'common.routeError.chunkTitle' : 'common.routeError.title')}
          </Title>
          <Text c="dimmed">{t(chunk ? 'common.routeError.chunkText' : 'common.routeError.text')}</Text>
          <Button onClick={() => window.location.reload()} w="fit-content">
            {t('common.routeError.reload')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
