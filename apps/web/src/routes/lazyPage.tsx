import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { LOADING_ATTR } from '../first-screen/takeover';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

/**
 * A page loaded on first visit: every screen but the sign-in page's (back-office, results with charts, mask
 * editor, sandbox, the signed-in layout…) stays out of the entry chunk. A spinner shows while the chunk
 * arrives; props are passed through, typed from the page itself. `preload()` starts the load before the page
 * renders (routes/index.tsx preloadFirstScreen).
 */
export function lazyPage<M extends Record<string, unknown>, N extends keyof M & string>(
  load: () => Promise<M>,
  name: N,
): ((props: M[N] extends AnyComponent ? ComponentProps<M[N]> & JSX.IntrinsicAttributes : never) => JSX.Element) & {
  preload: () => Promise<unknown>;
} {
  // one load, whether the page asks first or preload() (the entry starts the first screen's chunk with its data)
  let loading: Promise<M> | null = null;
  const preload = () =>
    (loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    }));
  const Page = lazy(async () => ({ default: (await preload())[name] as AnyComponent }));
  function LazyPage(props: object) {
    const { t } = useTranslation();
    return (
      <Suspense
        fallback={
          <Center p="xl" {...{ [LOADING_ATTR]: true }}>
            <Loader aria-label={t('common.loading')} />
          </Center>
        }
      >
        <Page {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  LazyPage.preload = preload;
  return LazyPage;
}
