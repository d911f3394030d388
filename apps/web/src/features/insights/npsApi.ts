/** The NPS prompt of the user's dashboard (issue 26): due or not, answer, close until the next period. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { npsApi, type NpsAnswerBody } from '@lamella/contracts';
import { call } from '../../api/client';

const KEY = ['nps'] as const;

export const useNpsPrompt = () => useQuery({ queryKey: KEY, queryFn: () => call(npsApi.prompt) });

export function useAnswerNps() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NpsAnswerBody) => call(npsApi.answer, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useDismissNps() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(npsApi.dismiss),
    onSuccess: (prompt) => qc.setQueryData(KEY, prompt),
  });
}
