/** Pure rules of the customization groups screen (back-office.md §4 inheritance, §5, §8 validation modal). */
import type { CustomizationParent, SettingsValidationError } from '@lamella/contracts';

/** One schema error of the validate call. */
export type ValidationError = Partial<SettingsValidationError>;

export interface ErrorGroup {
  /** The path label: segments joined, numeric segments as "Item N", no path → the general label. */
  label: string;
  path: string;
  messages: string[];
}

/** JSON Pointer segments (~1 → /, ~0 → ~), empty segments dropped. */
export function pathSegments(instancePath: string | undefined): string[] {
  return (instancePath ?? '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Groups validation errors by path, in order of first appearance. `item(n)` renders a numeric segment
 * (n is the 1-based position), `general` is the label of errors without a path.
 */
export function groupValidationErrors(
  errors: ValidationError[] | null | undefined,
  labels: { general: string; item: (n: number) => string; separator?: string },
): ErrorGroup[] {
  const sep = labels.separator ?? ' › ';
  const groups = new Map<string, ErrorGroup>();
  for (const e of errors ?? []) {
    const segs = pathSegments(e.instancePath);
    const path = segs.join('/');
    const label = segs.length === 0 ? labels.general : segs.map((s) => (/^\d+$/.test(s) ? labels.item(Number(s) + 1) : s)).join(sep);
    const g = groups.get(path) ?? { label, path, messages: [] };
    if (e.message && !g.messages.includes(e.message)) g.messages.push(e.message);
    groups.set(path, g);
  }
  return [...groups.values()];
}

/** A parent link as the group answer and the parents body carry it. */
export type ParentLink = Pick<CustomizationParent, 'parentId' | 'priority'>;

/** Parents ordered by priority, 0 first (ties keep their order). */
export function sortByPriority<T extends ParentLink>(parents: T[]): T[] {
  return [...parents]
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.priority - b.p.priority || a.i - b.i)
    .map((x) => x.p);
}

/** Moves one parent from `from` to `to` (indexes in priority order) and renumbers priorities 0..n-1. */
export function reorderParents<T extends ParentLink>(parents: T[], from: number, to: number): T[] {
  const list = sortByPriority(parents);
  if (from < 0 || from >= list.length || to < 0 || to >= list.length || from === to) return list.map((p, i) => ({ ...p, priority: i }));
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved);
  return list.map((p, i) => ({ ...p, priority: i }));
}

/** The body that sets the parents: every parent with its new priority. */
export const parentsBody = (parents: ParentLink[]) => ({ parents: sortByPriority(parents).map((p, i) => ({ parentId: p.parentId, priority: i })) });

/** Groups that may become parents: not the group itself, not already a parent, optionally only of the same model. */
export function parentCandidates<G extends { id: string; model?: { id: string } | null; modelId?: string | null }>(
  groups: G[],
  self: G,
  currentParentIds: string[],
  sameModelOnly: boolean,
): G[] {
  const modelOf = (g: G) => g.model?.id ?? g.modelId ?? null;
  return groups.filter((g) => g.id !== self.id && !currentParentIds.includes(g.id) && (!sameModelOnly || modelOf(g) === modelOf(self)));
}

/** The settings editor text: null when it is not valid JSON. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
