import { TypographyStylesProvider } from '@mantine/core';
import { useEffect, useState } from 'react';

type Sanitize = (html: string) => string;
let sanitizer: Promise<Sanitize> | null = null;
/** DOMPurify, loaded the first time rich text is shown (not part of the app's first load). */
const loadSanitizer = () =>
  (sanitizer ??= import('dompurify').then(
    ({ default: purify }) =>
      (html: string) =>
        purify.sanitize(html),
  ));

/** Rich text from the back-office, sanitised (DOMPurify) before it is shown; nothing is shown before that. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const [sanitize, setSanitize] = useState<{ run: Sanitize } | null>(null);
  useEffect(() => {
    let live = true;
    void loadSanitizer().then((run) => live && setSanitize({ run }));
    return () => {
      live = false;
    };
  }, []);
  return (
    <TypographyStylesProvider className={className}>
      <div dangerouslySetInnerHTML={{ __html: sanitize ? sanitize.run(html) : '' }} />
    </TypographyStylesProvider>
  );
}
