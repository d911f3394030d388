import { Anchor, Badge, ColorSwatch, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Recipe } from '@lamella/contracts';
import { useFormat } from '../../lib/format';

/** The user's recipes and those shared with their projects. */
export function RecipeList({ recipes }: { recipes: Recipe[] }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  if (!recipes.length) return <Text c="dimmed">{t('recipes.list.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('recipes.list.name')}</Table.Th>
            <Table.Th>{t('recipes.list.version')}</Table.Th>
            <Table.Th>{t('recipes.list.classes')}</Table.Th>
            <Table.Th>{t('recipes.list.updated')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {recipes.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <Anchor component={Link} to={`/recipes/${r.id}`}>
                  {r.name}
                </Anchor>
                {!r.own && (
                  <Badge ml="xs" size="xs" variant="light">
                    {t('recipes.list.shared')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{r.version}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {r.classes.map((c, i) => (
                    <Group key={i} gap={4} wrap="nowrap">
                      <ColorSwatch color={c.colour} size={12} />
                      <Text size="xs">{c.name}</Text>
                    </Group>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{dateTime(r.updatedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
