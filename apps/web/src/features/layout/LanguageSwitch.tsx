import { SegmentedControl } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usersApi, type Me } from '@lamella/contracts';
import { call } from '../../api/client';
import { changeLanguage, currentLanguage, isLng, type Lng } from '../../i18n';
import { ME_KEY, useMe } from '../auth/session';

/** Footer language switch (English / Deutsch): cookie + i18next, and the user's setting when signed in. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { data: me } = useMe();
  const qc = useQueryClient();

  const onChange = async (value: string) => {
    if (!isLng(value) || value === currentLanguage()) return;
    const lng: Lng = value;
    await changeLanguage(lng);
    // answers the server writes in the reader's language (results, model names, insights) are fetched again;
    // the session is not (it still holds the old language until the profile call below has stored the new one)
    void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    if (me && !me.twoFactorPending) {
      qc.setQueryData<Me | null>(ME_KEY, (old) => (old ? { ...old, language: lng } : old));
      try {
        await call(usersApi.updateProfile, { body: { language: lng } });
      } catch {
        // the UI already switched; the preference is stored in the cookie anyway
      }
      void qc.invalidateQueries({ queryKey: ['account'] });
    }
  };

  return (
    <SegmentedControl
      size="xs"
      aria-label={t('layout.footer.language')}
      value={isLng(i18n.language) ? i18n.language : 'en'}
      onChange={(v) => void onChange(v)}
      data={[
        { value: 'en', label: t('layout.footer.english') },
        { value: 'de', label: t('layout.footer.german') },
      ]}
    />
  );
}
