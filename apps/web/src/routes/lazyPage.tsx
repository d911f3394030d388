import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';
import { useTranslation } from 'react-i18next';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

/**
 * A page loaded on first visit: every screen but the sign-in page's (back-office, results with charts, mask
 * editor, sandbox, the signed-in layout…) stays out of the entry chunk. A spinner shows while the chunk
 * arrives; props are passed through, typed from the page itself.
 */
export function lazyPage<M extends Record<string, unknown>, N extends keyof M & string>(
  load: () => Promise<M>,
  name: N,
): (props: M[N] extends AnyComponent ? ComponentProps<M[N]> & JSX.IntrinsicAttributes : never) => JSX.Element {
  const Page = lazy(async () => ({ default: (await load())[name] as AnyComponent }));
  function LazyPage(props: object) {
    const { t } = useTranslation();
    return (
      <Suspense
        fallback={
          <Center p="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        }
      >
        <Page {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
