import { TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  initial: string;
  /** Called once with the trimmed name on Enter or blur (an unchanged or empty name calls onCancel). */
  onCommit: (name: string) => void;
  onCancel: () => void;
  error?: string;
  testId: string;
  /** The new-group row commits a re-typed name even when it equals `initial` (after a failed save). */
  commitUnchanged?: boolean;
}

/** The inline name field of the groups table: committed on Enter or blur, Escape cancels. */
export function GroupNameInput({ initial, onCommit, onCancel, error, testId, commitUnchanged = false }: Props) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = () => {
    if (done.current) return;
    done.current = true;
    const name = value.trim();
    if (!name || (name === initial && !commitUnchanged)) onCancel();
    else onCommit(name);
  };
  return (
    <TextInput
      size="xs"
      autoFocus
      value={value}
      error={error}
      placeholder={t('adminGroups.namePlaceholder')}
      aria-label={t('adminGroups.nameLabel')}
      data-testid={testId}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={finish}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish();
        } else if (e.key === 'Escape') {
          done.current = true;
          onCancel();
        }
      }}
    />
  );
}
