// The analysis engine's versions, in one place: the engine, the server (its built-in catalogue and the fallback
// settings schema) and the web app's sandbox read them from here (`@lamella/analysis/versions`, a light entry that
// loads nothing else). A new version is added here once; its engine changes go where the version is checked.

/** Every shipped version, oldest first. */
export const VERSIONS = [
  '20241025',
  '20250101',
  '20261123',
  '20261125',
  '20261126',
  '20261127',
  '20261201',
  '20261202',
  '20261203',
  '20261204',
  '20261207',
  '20261208',
  '20261209',
] as const;

export type ModelVersion = (typeof VERSIONS)[number];

/** The version new jobs get: the latest one. */
export const CURRENT_VERSION: ModelVersion = VERSIONS[VERSIONS.length - 1];

/** The entry of a list ordered by `from` version that applies to `version`: the latest at or before it (else the first). */
export function atVersion<T>(list: ReadonlyArray<readonly [string, T]>, version: string): T {
  let found = list[0][1];
  for (const [from, item] of list) if (version >= from) found = item;
  return found;
}
