import { Paper, Table } from '@mantine/core';
import { useState } from 'react';
import { GroupNameInput } from './GroupNameInput';
import type { GroupMutations } from './useGroupMutations';

/**
 * The inline row of 'Add group' (a card on phones): the name is committed on Enter or blur (POST /admin/groups);
 * Escape or empty cancels.
 */
export function NewGroupRow({ mutations, onDone, layout = 'row' }: { mutations: GroupMutations; onDone: () => void; layout?: 'row' | 'card' }) {
  // A failed save reopens the field with the typed name (the toast says why).
  const [attempt, setAttempt] = useState({ n: 0, name: '' });
  const input = (
    <GroupNameInput
      key={attempt.n}
      initial={attempt.name}
      testId="group-new-name"
      commitUnchanged
      onCancel={onDone}
      onCommit={(name) => mutations.create.mutate(name, { onSuccess: onDone, onError: () => setAttempt((a) => ({ n: a.n + 1, name })) })}
    />
  );
  if (layout === 'card')
    return (
      <Paper withBorder p="sm" data-testid="group-new-row">
        {input}
      </Paper>
    );
  return (
    <Table.Tr data-testid="group-new-row">
      <Table.Td colSpan={4}>{input}</Table.Td>
    </Table.Tr>
  );
}
