/**
 * Inheritance of customization groups (back-office.md §4 "Customization group inheritance"), without I/O.
 *
 * Rules:
 * - Parents are ordered by priority, 0 first: the parent with the lowest priority number is the most important
 *   one, so its values win over those of the parents after it. Ties are broken by parent id (stable).
 * - A group's own settings win over everything it inherits; the model defaults lose to everything.
 * - Each parent contributes its own resolved chain (its parents, then itself). The whole ancestry is flattened
 *   into one merge order in which each group appears once, at its strongest position (the last time it would
 *   be applied), so a group reached through two parents is not applied twice.
 * - Merging is deep: objects merge key by key; arrays and scalars are replaced.
 * - Cycles are refused when parents are set (`findCycle`); resolution also stops at a cycle defensively.
 */
import { deepMerge } from '../compute-models/service.ts';

export type Json = Record<string, unknown>;

export interface ParentLink {
  parentId: string;
  priority: number;
}

export interface GroupNode {
  id: string;
  settings: Json;
  parents: ParentLink[];
}

export type Graph = ReadonlyMap<string, GroupNode>;

/** Parents in priority order, 0 first (ties by parent id). */
export function sortParents<T extends ParentLink>(parents: readonly T[]): T[] {
  return [...parents].sort((a, b) => a.priority - b.priority || (a.parentId < b.parentId ? -1 : a.parentId > b.parentId ? 1 : 0));
}

/**
 * The order in which settings layers are applied for `groupId` (weakest first, the group itself last).
 * Parents are applied from the last (highest priority number) to the first (priority 0), each preceded by its
 * own ancestry; when a group occurs more than once, only its last (strongest) occurrence is kept.
 * Unknown parent ids and cycles are skipped.
 */
export function mergeOrder(graph: Graph, groupId: string): string[] {
  const seq: string[] = [];
  const onPath = new Set<string>();
  const walk = (id: string) => {
    const node = graph.get(id);
    if (!node || onPath.has(id)) return;
    onPath.add(id);
    for (const p of sortParents(node.parents).reverse()) walk(p.parentId);
    onPath.delete(id);
    seq.push(id);
  };
  walk(groupId);
  const lastIndex = new Map<string, number>();
  seq.forEach((id, i) => lastIndex.set(id, i));
  return seq.filter((id, i) => lastIndex.get(id) === i);
}

/** The ancestors of `groupId`, strongest first (the group itself excluded). */
export function inheritanceChain(graph: Graph, groupId: string): string[] {
  return mergeOrder(graph, groupId)
    .filter((id) => id !== groupId)
    .reverse();
}

/** The settings the group inherits (its ancestors merged), without the model defaults and without its own. */
export function inheritedSettings(graph: Graph, groupId: string): Json {
  const order = mergeOrder(graph, groupId).filter((id) => id !== groupId);
  return deepMerge(...order.map((id) => graph.get(id)!.settings ?? {}));
}

/** Model defaults ← ancestors (weakest first) ← the group's own settings. */
export function resolveSettings(graph: Graph, groupId: string, defaults: Json): Json {
  const order = mergeOrder(graph, groupId);
  return deepMerge(defaults, ...order.map((id) => graph.get(id)!.settings ?? {}));
}

/**
 * Whether giving `groupId` the parents `parentIds` (replacing its current parents) would close a cycle.
 * Answers the first parent from which `groupId` is reachable (the group itself when it is its own parent),
 * or null.
 */
export function findCycle(graph: Graph, groupId: string, parentIds: readonly string[]): string | null {
  for (const start of parentIds) {
    if (start === groupId) return start;
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const id = stack.pop()!;
      if (id === groupId) return start;
      if (seen.has(id)) continue;
      seen.add(id);
      // The group's own current parents are being replaced: they do not count.
      const node = graph.get(id);
      if (node) for (const p of node.parents) stack.push(p.parentId);
    }
  }
  return null;
}
