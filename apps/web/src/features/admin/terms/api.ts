/** Terms calls of the back-office (/admin/terms), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { termsApi, type TermsLanguageParams } from '@lamella/contracts';
import { call } from '../../../api/client';

export const adminTermsKey = (language: TermsLanguageParams['language']) => ['admin', 'terms', language] as const;

export function useAdminTerms(language: TermsLanguageParams['language']) {
  return useQuery({ queryKey: adminTermsKey(language), queryFn: () => call(termsApi.adminGet, { params: { language } }) });
}

export { termsApi };
