import { Anchor, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../auth/session';
import { MASK_EDITOR_ROLES } from '../results/JobItem';
import { MaskEditor } from './MaskEditor';

/** /admin/mask-editor?mask=&image=&job= — a full-page label-mask editor (ADMIN, POWER_USER, EDITOR). */
export function MaskEditorPage() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  if (!me) return null;
  if (!MASK_EDITOR_ROLES.includes(me.role)) {
    return (
      <Center mih="60vh">
        <Stack align="center">
          <Text>{t('maskEditor.forbidden')}</Text>
          <Anchor component={Link} to="/dashboard">
            {t('maskEditor.toDashboard')}
          </Anchor>
        </Stack>
      </Center>
    );
  }
  return <MaskEditor />;
}
