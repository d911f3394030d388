/** Rich-text (HTML) editor: Mantine's Tiptap editor with the usual controls and an image-by-URL button. */
import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { IconLibraryPhoto, IconPhoto } from '@tabler/icons-react';
import Image from '@tiptap/extension-image';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicImagePicker } from '../images/PublicImagePicker';

interface Props {
  label?: string;
  /** Initial HTML; remount (key) to load other content. */
  value: string;
  onChange: (html: string) => void;
  error?: string | null;
  testId?: string;
  minHeight?: number;
}

/** '' for an editor that holds only an empty paragraph. */
export function normalizeHtml(html: string): string {
  const stripped = html.replace(/<p>\s*<\/p>/g, '').trim();
  return stripped ? html : '';
}

export function RichText({ label, value, onChange, error, testId, minHeight = 180 }: Props) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link, Image],
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor: e }) => onChange(normalizeHtml(e.getHTML())),
  });
  return (
    <Input.Wrapper label={label} error={error}>
      <RichTextEditor
        editor={editor}
        mt={label ? 4 : 0}
        data-testid={testId}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
            <RichTextEditor.Control
              aria-label={t('admin.rte.image')}
              title={t('admin.rte.image')}
              onClick={() => {
                const src = window.prompt(t('admin.rte.imageUrl'));
                if (src) editor?.chain().focus().setImage({ src }).run();
              }}
            >
              <IconPhoto size={16} stroke={1.5} />
            </RichTextEditor.Control>
            <RichTextEditor.Control aria-label={t('adminImages.picker.open')} title={t('adminImages.picker.open')} onClick={() => setPicking(true)}>
              <IconLibraryPhoto size={16} stroke={1.5} />
            </RichTextEditor.Control>
            <RichTextEditor.SourceCode />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content style={{ minHeight }} />
      </RichTextEditor>
      <PublicImagePicker
        opened={picking}
        onClose={() => setPicking(false)}
        onPick={(src, alt) => {
          setPicking(false);
          editor?.chain().focus().setImage({ src, alt }).run();
        }}
      />
    </Input.Wrapper>
  );
}
