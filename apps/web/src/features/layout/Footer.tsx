import { Anchor, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { systemApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { LanguageSwitch } from './LanguageSwitch';

export function useVersion() {
  return useQuery({ queryKey: ['version'], queryFn: () => call(systemApi.version), staleTime: Infinity });
}

/** Version (plus the environment unless production), links to terms, imprint, licenses, the language switch. */
export function Footer() {
  const { t } = useTranslation();
  const { data } = useVersion();
  const versionText = data
    ? data.environment && data.environment !== 'production'
      ? t('layout.footer.versionWithEnv', { version: data.version, environment: data.environment })
      : t('layout.footer.version', { version: data.version })
    : '';
  return (
    <Group justify="space-between" gap="xs" px="md" py={6} wrap="wrap" component="footer">
      <Text size="xs" c="dimmed" data-testid="app-version">
        {versionText}
      </Text>
      <Group gap="md" wrap="wrap">
        <Anchor component={Link} to="/terms" size="xs">
          {t('layout.footer.terms')}
        </Anchor>
        <Anchor component={Link} to="/imprint" size="xs">
          {t('layout.footer.imprint')}
        </Anchor>
        <Anchor component={Link} to="/licenses" size="xs">
          {t('layout.footer.licenses')}
        </Anchor>
        <LanguageSwitch />
      </Group>
    </Group>
  );
}
