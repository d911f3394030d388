import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useRecipe } from './api';
import { RecipeApplyPanel } from './RecipeApplyPanel';

/** One recipe: its classes, and applying it to other images. */
export function RecipePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const recipe = useRecipe(id);
  if (recipe.isPending) return <Skeleton h={200} />;
  if (recipe.error || !recipe.data) return <Text c="red">{errorText(t, recipe.error)}</Text>;
  return (
    <Stack gap="md" maw={1100}>
      <Title order={1} size="h2">
        {recipe.data.name}
      </Title>
      <Text size="sm">{recipe.data.classes.map((c) => c.name).join(' · ')}</Text>
      <RecipeApplyPanel recipe={recipe.data} />
    </Stack>
  );
}
