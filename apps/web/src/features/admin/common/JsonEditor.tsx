/** JSON editor (CodeMirror 6 with JSON highlighting and lint-free editing). */
import { json } from '@codemirror/lang-json';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';

const extensions = [json(), EditorView.lineWrapping];

export function JsonEditor({
  value,
  onChange,
  readOnly,
  height = '420px',
  testId,
  label,
}: {
  value: string;
  onChange?: (v: string) => void;
  readOnly?: boolean;
  height?: string;
  testId?: string;
  label?: string;
}) {
  return (
    <div
      data-testid={testId}
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        readOnly={readOnly}
        editable={!readOnly}
        height={height}
        extensions={extensions}
        basicSetup={{ foldGutter: true, lineNumbers: true, highlightActiveLine: !readOnly }}
        aria-label={label}
      />
    </div>
  );
}
