/**
 * The images table's choices (back-office.md §2 Images screen: "Column choices are remembered locally"): visible
 * columns, sort and filters, kept in localStorage; and the date shortcuts of the Date filter.
 */
import type { AdminImagesQuery } from '@lamella/contracts';

export const IMAGE_COLUMNS = ['thumbnail', 'owner', 'date', 'training', 'deleted'] as const;
export type ImageColumn = (typeof IMAGE_COLUMNS)[number];
export type YesNo = 'yes' | 'no' | null;

export interface ImagePrefs {
  columns: ImageColumn[];
  sortKey: 'createdAt' | 'owner';
  sortOrder: 'asc' | 'desc';
  userId: string | null;
  startDate: string | null;
  endDate: string | null;
  training: YesNo;
  deleted: YesNo;
  /** Issue 25: only the images that can train this model (consent, flag and a submitted corrected segmentation). */
  trainableModelId: string | null;
}

export const DEFAULT_PREFS: ImagePrefs = {
  columns: [...IMAGE_COLUMNS],
  sortKey: 'createdAt',
  sortOrder: 'desc',
  userId: null,
  startDate: null,
  endDate: null,
  training: null,
  deleted: null,
  trainableModelId: null,
};

export const PREFS_KEY = 'lamella.admin.images';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const yesNo = (v: unknown): YesNo => (v === 'yes' || v === 'no' ? v : null);
const text = (v: unknown, re?: RegExp): string | null => (typeof v === 'string' && v && (!re || re.test(v)) ? v : null);

/** Stored choices, each checked; anything unreadable falls back to the default. */
export function readPrefs(storage: Pick<Storage, 'getItem'> = localStorage): ImagePrefs {
  let raw: Record<string, unknown> = {};
  try {
    raw = (JSON.parse(storage.getItem(PREFS_KEY) ?? '{}') as Record<string, unknown>) ?? {};
  } catch {
    raw = {};
  }
  const columns = Array.isArray(raw.columns) ? IMAGE_COLUMNS.filter((c) => (raw.columns as unknown[]).includes(c)) : DEFAULT_PREFS.columns;
  return {
    columns,
    sortKey: raw.sortKey === 'owner' ? 'owner' : 'createdAt',
    sortOrder: raw.sortOrder === 'asc' ? 'asc' : 'desc',
    userId: text(raw.userId),
    startDate: text(raw.startDate, DAY),
    endDate: text(raw.endDate, DAY),
    training: yesNo(raw.training),
    deleted: yesNo(raw.deleted),
    trainableModelId: text(raw.trainableModelId),
  };
}

export function writePrefs(prefs: ImagePrefs, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // storage full or disabled: the choices last for this visit only
  }
}

/** The list call's query for the choices (page added by the caller). */
export function queryOf(p: ImagePrefs): AdminImagesQuery {
  const flag = (v: YesNo) => (v === null ? undefined : v === 'yes');
  return {
    sortKey: p.sortKey,
    sortOrder: p.sortOrder,
    userId: p.userId ?? undefined,
    startDate: p.startDate ?? undefined,
    endDate: p.endDate ?? undefined,
    allowedTrainingUse: flag(p.training),
    isDeleted: flag(p.deleted),
  };
}

/** A header click: a new key sorts descending, the same key flips the order. */
export function nextSort(p: ImagePrefs, key: ImagePrefs['sortKey']): Pick<ImagePrefs, 'sortKey' | 'sortOrder'> {
  if (p.sortKey !== key) return { sortKey: key, sortOrder: 'desc' };
  return { sortKey: key, sortOrder: p.sortOrder === 'desc' ? 'asc' : 'desc' };
}

export const SHORTCUTS = ['sinceYesterday', 'last7Days', 'last30Days'] as const;
export type Shortcut = (typeof SHORTCUTS)[number];

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The start/end days (UTC, as the server filters) of a shortcut, today included. */
export function shortcutRange(s: Shortcut, now: Date = new Date()): { startDate: string; endDate: string } {
  const back = s === 'sinceYesterday' ? 1 : s === 'last7Days' ? 6 : 29;
  const start = new Date(now.getTime() - back * 24 * 60 * 60 * 1000);
  return { startDate: isoDay(start), endDate: isoDay(now) };
}
