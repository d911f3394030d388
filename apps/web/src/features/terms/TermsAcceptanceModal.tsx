import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { termsApi } from '@lamella/contracts';
import { call } from '../../api/client';

const PendingTermsDialog = lazy(async () => ({ default: (await import('./PendingTermsDialog')).PendingTermsDialog }));

/**
 * Blocks the signed-in app while the user has not accepted the current terms (issue 11 item 5): shows the new text
 * with Accept (and Log out). Mounted once in AppLayout, so it appears right after sign-in; the dialog's code
 * (PendingTermsDialog, with DOMPurify) loads only when there are terms to accept.
 */
export function TermsAcceptanceModal() {
  const { i18n } = useTranslation();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const pending = useQuery({ queryKey: ['terms-pending', lng], queryFn: () => call(termsApi.pending), staleTime: 5 * 60_000 });
  const terms = pending.data?.pending ? pending.data.terms : null;
  if (!terms) return null;
  return (
    <Suspense fallback={null}>
      <PendingTermsDialog terms={terms} lng={lng} />
    </Suspense>
  );
}
