import { Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { claimChunkReload, isChunkLoadError } from './chunkReload';

/**
 * The error element of every route: instead of React Router's developer page, a screen whose code failed to load
 * reloads the app once (a new build was deployed), and any other failure (or a second load failure) shows a
 * short explanation with a reload button.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  // the reload is claimed in an effect (a committed render), never during render: a render React discards must not
  // use up the one reload; a spinner shows meanwhile
  const [reloading, setReloading] = useState(chunk);
  useEffect(() => {
    if (!chunk) return;
    if (claimChunkReload(window.sessionStorage)) window.location.reload();
    else setReloading(false);
  }, [chunk]);
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
