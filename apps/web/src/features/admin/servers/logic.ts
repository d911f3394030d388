/** Pure rules of the servers screen (back-office.md §4, §5). */

import type { LauncherState } from '@lamella/contracts';

export type NodeStatus = 'ONLINE' | 'OFFLINE' | string;
export type { LauncherState };

/** stopped (not enabled), updating (enabled and updating), running (enabled, not updating); the server adds failed. */
export function launcherState(e: { isEnabled: boolean; isUpdating: boolean }): LauncherState {
  if (!e.isEnabled) return 'stopped';
  return e.isUpdating ? 'updating' : 'running';
}

export const isBeta = (version: string | null | undefined) => !!version && /beta/i.test(version);

/** ONLINE / OFFLINE, anything else is Unknown. */
export function statusKey(status: NodeStatus | null | undefined): 'ONLINE' | 'OFFLINE' | 'UNKNOWN' {
  return status === 'ONLINE' || status === 'OFFLINE' ? status : 'UNKNOWN';
}

/** Dotted quad, each part 0..255 without leading zeros. */
export function isIPv4(value: string): boolean {
  const parts = value.trim().split('.');
  return parts.length === 4 && parts.every((x) => /^(0|[1-9]\d{0,2})$/.test(x) && Number(x) <= 255);
}

/** Cloud nodes: Start disabled when ONLINE or while a start/stop is pending; Stop disabled when OFFLINE. */
export function cloudButtons(status: NodeStatus | null | undefined, pending: boolean): { startDisabled: boolean; stopDisabled: boolean } {
  return { startDisabled: status === 'ONLINE' || pending, stopDisabled: status === 'OFFLINE' || pending };
}

/** Environment variables field: empty → {}, else a JSON object; null when invalid. */
export function parseEnv(text: string): Record<string, string> | null {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    return v as Record<string, string>;
  } catch {
    return null;
  }
}

/** The `expanded` query parameter: comma-separated launcher ids. */
export const parseIdList = (value: string | null): string[] => (value ? value.split(',').filter(Boolean) : []);
export function toggleId(list: string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

export function truncate(text: string, max = 50): { text: string; truncated: boolean } {
  return text.length > max ? { text: text.slice(0, max) + '…', truncated: true } : { text, truncated: false };
}
