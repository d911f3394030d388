import { useQuery } from '@tanstack/react-query';
import { imagesApi } from '@lamella/contracts';
import { call } from '../../api/client';

export const STORAGE_USAGE_KEY = ['storage-usage'] as const;

/** The caller's image storage: used bytes, quota (null: none) and the upload limits (GET /images/storage). */
export function useStorageUsage() {
  return useQuery({ queryKey: STORAGE_USAGE_KEY, queryFn: () => call(imagesApi.storage) });
}

/** Bytes as people read them, in the UI language: `512 KB`, `1.5 MB`, `2 GB`. */
export function formatBytes(bytes: number, lng: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(lng, { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value)} ${units[unit]}`;
}
