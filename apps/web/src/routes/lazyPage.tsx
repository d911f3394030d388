import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A page loaded on first visit: heavy screens (back-office, results with charts, mask editor, sandbox) stay out
 * of the bundle that the sign-in page and the dashboard download. A spinner shows while the chunk arrives.
 */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  function LazyPage() {
    const { t } = useTranslation();
    return (
      <Suspense
        fallback={
          <Center p="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        }
      >
        <Page />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
