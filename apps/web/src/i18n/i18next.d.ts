/**
 * Typed translation keys: a literal key given to `t()` must exist in the English files
 * (packages/i18n/locales/en), addressed as `<namespace>.<path>` in the single `translation` bundle, e.g.
 * `t('auth.passwordValidator.length')`; a typo is a type error. A key computed at run time (a variable of type
 * `string`, a template such as `admin.menu.${page}`, or a union of several keys) is accepted as it is: it cannot be checked by the
 * compiler, so packages/i18n/src/completeness.test.ts lists the prefixes under which keys are built and checks
 * those against the files instead.
 */
import 'i18next';
import type { TOptions } from 'i18next';
import type { EnglishResources } from '@lamella/i18n';

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** True for one string literal ('a.b'); false for `string`, for templates (`a.${string}`) and for unions ('a' | 'b'). */
type IsSingleLiteral<K extends string> = string extends K
  ? false
  : // a template type becomes an index signature, which the empty object satisfies; a literal does not
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    {} extends Record<K, 1>
    ? false
    : [K] extends [UnionToIntersection<K>]
      ? true
      : false;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: EnglishResources };
  }

  // A computed key (see above): accepted, answers a string. (The type parameters must repeat i18next's own.)
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TFunction<Ns, KPrefix> {
    <K extends string>(key: IsSingleLiteral<K> extends true ? never : K, options?: TOptions): string;
  }
}
