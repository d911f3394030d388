import { useEffect } from 'react';
import { changeLanguage, currentLanguage } from '../../i18n';
import { useMe } from '../auth/session';

/** On load (and after sign-in) the signed-in user's `language` wins over the cookie and the browser. */
export function LanguageSync() {
  const { data: me } = useMe();
  useEffect(() => {
    if (me?.language && me.language !== currentLanguage()) void changeLanguage(me.language);
  }, [me?.language, me]);
  return null;
}
