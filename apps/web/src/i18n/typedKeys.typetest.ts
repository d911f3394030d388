/** Type-level test of the typed `t()` keys (i18next.d.ts): checked by `tsc -p apps/web`, never imported. */
import type { TFunction } from 'i18next';
export function probe(t: TFunction, k: string, u: 'a' | 'b') {
  const a: string = t('common.save');
  // @ts-expect-error unknown literal key
  t('common.doesNotExist');
  const b: string = t(k);
  const c: string = t(`admin.menu.${k}`);
  const d: string = t(`x.${u}`, { n: 1 });
  return [a, b, c, d];
}
