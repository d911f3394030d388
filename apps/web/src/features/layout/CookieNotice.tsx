import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCookie, setCookie } from '../../lib/cookies';

const CONSENT_COOKIE = 'cookie-consent';
/** Spec: consent cookie lifetime 10 (units not shown) — decided: 10 days. */
const CONSENT_DAYS = 10;

/** Shown until the consent cookie exists; a single "Understood" button. */
export function CookieNotice() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => getCookie(CONSENT_COOKIE) === undefined);
  const accept = () => {
    setCookie(CONSENT_COOKIE, 'true', CONSENT_DAYS);
    setOpen(false);
  };
  return (
    <Modal opened={open} onClose={accept} withCloseButton={false} closeOnClickOutside={false} title={t('layout.cookies.title')} centered size="md">
      <Text size="sm">{t('layout.cookies.text')}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={accept} data-autofocus>
          {t('layout.cookies.understood')}
        </Button>
      </Group>
    </Modal>
  );
}
