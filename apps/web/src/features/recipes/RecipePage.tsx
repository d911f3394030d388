import { Alert, Anchor, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { useRecipe } from './api';
import { RecipeApplyPanel } from './RecipeApplyPanel';

/** One recipe: its classes, and applying it to other images. */
export function RecipePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const recipe = useRecipe(id);
  if (recipe.isPending) return <Skeleton h={200} />;
  if (recipe.error || !recipe.data) {
    // an unknown, deleted or someone else's recipe (404), or an address that names none (400 on the id): said in
    // the reader's language, not as the server's "recipe wurde nicht gefunden." or 'params.id: must match format "uuid"'
    const gone = isApiError(recipe.error) && (recipe.error.statusCode === 404 || recipe.error.statusCode === 400);
    return (
      <Stack gap="sm" maw={700} data-testid="recipe-error">
        <Alert color={gone ? 'yellow' : 'red'} title={gone ? t('recipes.page.notFoundTitle') : t('recipes.page.loadFailedTitle')}>
          {gone ? t('recipes.page.notFound') : errorText(t, recipe.error)}
        </Alert>
        <Anchor component={Link} to="/recipes" size="sm">
          {t('recipes.page.backToList')}
        </Anchor>
      </Stack>
    );
  }
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
