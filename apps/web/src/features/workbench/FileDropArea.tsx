import { Box } from '@mantine/core';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';

/** What a drag over the area carries: files it takes, files it refuses, or nothing yet. */
export type DropState = 'idle' | 'accept' | 'reject';

/** Accepted files as MIME type → extensions (as react-dropzone's `accept`). */
export type AcceptMap = Record<string, string[]>;

export const isAccepted = (file: { name: string; type: string }, accept: AcceptMap): boolean => {
  const name = file.name.toLowerCase();
  return Object.entries(accept).some(([type, exts]) => file.type === type || exts.some((e) => name.endsWith(e)));
};

/**
 * A drop area for files that also opens the file picker on click or Enter (a file input inside it): files of the
 * accepted types go to `onDrop`, the others to `onReject`. The app's own small replacement for @mantine/dropzone
 * (react-dropzone and its MIME table), which the dashboard's first load did without (issue 30 item 5).
 */
export function FileDropArea({
  accept,
  onDrop,
  onReject,
  label,
  testId,
  children,
}: {
  accept: AcceptMap;
  onDrop: (files: File[]) => void;
  onReject: (files: File[]) => void;
  label: string;
  testId?: string;
  children: (state: DropState) => ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<DropState>('idle');
  const take = (files: File[]) => {
    const ok = files.filter((f) => isAccepted(f, accept));
    const refused = files.filter((f) => !isAccepted(f, accept));
    if (ok.length) onDrop(ok);
    if (refused.length) onReject(refused);
  };
  const over = (e: DragEvent) => {
    e.preventDefault();
    const items = [...e.dataTransfer.items].filter((i) => i.kind === 'file');
    // while dragging, browsers tell the type (not the name): an unknown type is judged on drop
    setState(items.some((i) => i.type && !Object.hasOwn(accept, i.type)) ? 'reject' : 'accept');
  };
  return (
    <Box
      role="button"
      tabIndex={0}
      aria-label={label}
      data-testid={testId}
      data-state={state}
      onClick={() => input.current?.click()}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          input.current?.click();
        }
      }}
      onDragEnter={over}
      onDragOver={over}
      onDragLeave={() => setState('idle')}
      onDrop={(e) => {
        e.preventDefault();
        setState('idle');
        take([...e.dataTransfer.files]);
      }}
      p="md"
      style={{
        cursor: 'pointer',
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px dashed var(--mantine-color-${state === 'reject' ? 'red-6' : state === 'accept' ? 'blue-6' : 'gray-4'})`,
        backgroundColor: state === 'accept' ? 'var(--mantine-color-blue-0)' : state === 'reject' ? 'var(--mantine-color-red-0)' : undefined,
      }}
    >
      <input
        ref={input}
        type="file"
        multiple
        accept={Object.entries(accept)
          .flatMap(([type, exts]) => [type, ...exts])
          .join(',')}
        hidden
        onChange={(e) => {
          take([...(e.currentTarget.files ?? [])]);
          e.currentTarget.value = '';
        }}
      />
      {children(state)}
    </Box>
  );
}
