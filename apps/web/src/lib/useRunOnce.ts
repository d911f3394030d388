import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/**
 * Runs a one-time call (a token link, a sign-out) once when the page mounts, also under StrictMode, and exposes
 * its state. A mutation (not a query) so clearing the query cache afterwards never runs it again.
 */
export function useRunOnce<T>(fn: () => Promise<T>): UseMutationResult<T, Error, void> {
  const mutation = useMutation({ mutationFn: fn });
  const started = useRef(false);
  const { mutate } = mutation;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);
  return mutation;
}
