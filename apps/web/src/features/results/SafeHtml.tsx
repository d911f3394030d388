import { TypographyStylesProvider } from '@mantine/core';
import DOMPurify from 'dompurify';

/** Rich text from the back-office, sanitised (DOMPurify) before it is shown. */
export function SafeHtml({ html }: { html: string }) {
  return (
    <TypographyStylesProvider>
      <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />
    </TypographyStylesProvider>
  );
}
