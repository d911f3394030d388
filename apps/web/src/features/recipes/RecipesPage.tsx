import { Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useRecipes } from './api';
import { RecipeList } from './RecipeList';

/** Recipes (issue 22): the list, and the way to a new one. */
export function RecipesPage() {
  const { t } = useTranslation();
  const recipes = useRecipes();
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('recipes.title')}
        </Title>
        <Button component={Link} to="/recipes/new" leftSection={<IconPlus size={16} />}>
          {t('recipes.list.new')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('recipes.intro')}
      </Text>
      {recipes.isPending ? <Skeleton h={120} /> : <RecipeList recipes={recipes.data ?? []} />}
    </Stack>
  );
}
