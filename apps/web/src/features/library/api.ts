import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { imageLibraryApi, type LibraryQuery } from '@lamella/contracts';
import { call } from '../../api/client';

export const LIBRARY_KEY = ['image-library'] as const;

export function useLibrary(query: LibraryQuery, enabled = true) {
  return useQuery({
    queryKey: [...LIBRARY_KEY, query],
    queryFn: () => call(imageLibraryApi.list, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Soft delete; the jobs of the images are archived, so job lists and projects are refreshed too. */
export function useDeleteImages() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (imageIds: string[]) => call(imageLibraryApi.remove, { body: { imageIds } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: LIBRARY_KEY });
      void qc.invalidateQueries({ queryKey: ['projects'] });
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      void qc.invalidateQueries({ queryKey: ['images'] });
    },
  });
}
