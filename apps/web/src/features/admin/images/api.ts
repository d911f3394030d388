/** The calls of the back-office images page and the public images library (back-office.md §7 Images). */
import { adminImagesApi, type AdminImage, type PublicImage } from '@lamella/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call, callRaw, urlOf } from '../../../api/client';
import { queryOf, type ImagePrefs } from './prefs';

export { adminImagesApi };
export const PUBLIC_IMAGES_KEY = ['admin', 'public-images'] as const;

/** Every user's images, page after page: the next page number comes from the `x-next-page` header, the total from `x-total-count`. */
export function useAdminImages(prefs: ImagePrefs, enabled = true) {
  const query = queryOf(prefs);
  return useInfiniteQuery({
    queryKey: ['admin', 'images', query],
    queryFn: async ({ pageParam, signal }): Promise<{ items: AdminImage[]; next: number | undefined; total: number | undefined }> => {
      const res = await callRaw(adminImagesApi.list, { query: { ...query, page: pageParam }, signal });
      const next = Number(res.headers.get('x-next-page'));
      const total = res.headers.get('x-total-count');
      return {
        items: (await res.json()) as AdminImage[],
        next: Number.isInteger(next) && next > pageParam ? next : undefined,
        total: total === null ? undefined : Number(total),
      };
    },
    initialPageParam: 1,
    getNextPageParam: (last) => last.next,
    enabled,
  });
}

export function useImageOwners(search: string) {
  return useQuery({
    queryKey: ['admin', 'image-owners', search],
    queryFn: () => call(adminImagesApi.owners, { query: { search: search || undefined } }),
    staleTime: 30_000,
  });
}

/** The metadata report's link; `xlsx` for the Excel file (CSV by default). */
export const metadataReportUrl = (format: 'csv' | 'xlsx' = 'csv') =>
  urlOf(adminImagesApi.metadataReport, format === 'xlsx' ? { query: { format } } : {});

export function usePublicImages(enabled = true) {
  return useQuery({ queryKey: PUBLIC_IMAGES_KEY, queryFn: () => call(adminImagesApi.publicList), enabled });
}

export function useRemovePublicImage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (filename: string) => call(adminImagesApi.publicRemove, { params: { filename } }),
    onSettled: () => qc.invalidateQueries({ queryKey: PUBLIC_IMAGES_KEY }),
  });
}

/**
 * POST /admin/images/public with upload progress (fetch has none): resolves with the stored images, rejects with
 * an ApiError carrying the server's `{code, message}`.
 */
export function uploadPublicImages(files: File[], onProgress: (fraction: number) => void): Promise<PublicImage[]> {
  return new Promise<PublicImage[]>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(adminImagesApi.publicUpload.method, urlOf(adminImagesApi.publicUpload));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body)) {
        onProgress(1);
        resolve(body as PublicImage[]);
      } else {
        const b = (body ?? {}) as { code?: string; message?: string };
        reject(new ApiError(xhr.status, b.code ?? `HTTP_${xhr.status}`, b.message ?? xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'network error'));
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    xhr.send(form);
  });
}
