import { Button, Card, MultiSelect, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Job, Recipe } from '@lamella/contracts';
import { useAvailableModels } from '../favourites/api';
import { errorText } from '../../lib/errorText';
import { modelName } from '../../lib/modelName';
import { useOwnImages, useRunWithRecipe } from './api';
import { RecipeJobRow } from './RecipeJobRow';

/** The models that read a recipe, and the measure each needs. */
const RECIPE_MODELS: Record<string, (r: Recipe) => boolean> = {
  'layer-thickness': (r) => Number.isInteger(r.measures.layer),
  porosity: (r) => !!r.measures.phase?.length,
  cracks: (r) => Number.isInteger(r.measures.crack) || Number.isInteger(r.measures.crackRegion),
};

/** Applies a saved recipe to other images (a batch) with a model that measures its chosen class. */
export function RecipeApplyPanel({ recipe }: { recipe: Recipe }) {
  const { t, i18n } = useTranslation();
  const images = useOwnImages();
  const models = useAvailableModels();
  const run = useRunWithRecipe();
  const [imageIds, setImageIds] = useState<string[]>([]);
  const usable = (models.data ?? []).filter((m) => RECIPE_MODELS[m.name]?.(recipe));
  const [modelId, setModelId] = useState<string | null>(null);
  const chosenModel = modelId ?? usable[0]?.id ?? null;
  const [jobs, setJobs] = useState<Job[]>([]);
  const nameOf = (id: string) => images.data?.find((i) => i.id === id)?.orginalFilename ?? id;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('recipes.apply.title', { name: recipe.name, version: recipe.version })}
        </Title>
        <MultiSelect
          label={t('recipes.apply.images')}
          data={(images.data ?? []).map((i) => ({ value: i.id, label: i.orginalFilename }))}
          value={imageIds}
          onChange={setImageIds}
          searchable
        />
        <Select
          label={t('recipes.apply.model')}
          data={usable.map((m) => ({ value: m.id, label: modelName(t, m, i18n.language) }))}
          value={chosenModel}
          onChange={setModelId}
          allowDeselect={false}
        />
        {run.error && (
          <Text c="red" size="sm">
            {errorText(t, run.error)}
          </Text>
        )}
        <Button
          disabled={!imageIds.length || !chosenModel}
          loading={run.isPending}
          onClick={() =>
            run.mutate(
              { imageIds, modelIds: [chosenModel!], recipeId: recipe.id, recipeVersion: recipe.version },
              { onSuccess: (created) => setJobs(created) },
            )
          }
        >
          {t('recipes.apply.run')}
        </Button>
        {jobs.length > 0 && (
          <Stack gap={0} data-testid="recipe-jobs">
            {jobs.map((j) => (
              <RecipeJobRow key={j.id} job={j} imageName={nameOf(j.imageId)} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
