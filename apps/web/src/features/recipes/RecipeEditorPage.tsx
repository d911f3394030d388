import { Alert, Button, Card, Grid, Group, Select, Slider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Recipe, RecipeGreyRange, RecipeMeasures, RecipeStroke } from '@lamella/contracts';
import { errorText } from '../../lib/errorText';
import { useOwnImages, useSaveRecipe, useTrainRecipe } from './api';
import { ClassPicker } from './ClassPicker';
import { addClass, canAddClass, defaultClasses, recipeClasses, removeClass, renameClass } from './defaults';
import { GreyRangePicker } from './GreyRangePicker';
import { MeasuresPicker } from './MeasuresPicker';
import { RecipeApplyPanel } from './RecipeApplyPanel';
import { StrokeCanvas } from './StrokeCanvas';
import { formatShare } from './format';

/**
 * Say what to measure (issue 22): pick an image, mark a few strokes per class (or a grey range), see the trained
 * classifier's segmentation at once over the image, correct with more strokes, name the recipe and save it; then
 * apply it to other images.
 */
export function RecipeEditorPage() {
  const { t, i18n } = useTranslation();
  const images = useOwnImages();
  const train = useTrainRecipe();
  const save = useSaveRecipe();
  const [imageId, setImageId] = useState<string | null>(null);
  const [editorClasses, setClasses] = useState(defaultClasses);
  // default names in the language of the moment (a switch renames them), the user's names as typed
  const classes = recipeClasses(editorClasses, (d) => t(d.key, d.vars));
  const [active, setActive] = useState(0);
  const [strokes, setStrokes] = useState<RecipeStroke[]>([]);
  const [grey, setGrey] = useState(false);
  const [range, setRange] = useState<RecipeGreyRange>({ classIndex: 0, min: 100, max: 160 });
  const [opacity, setOpacity] = useState(0.45);
  const [name, setName] = useState('');
  const [measures, setMeasures] = useState<RecipeMeasures>({ layer: 0 });
  const [saved, setSaved] = useState<Recipe | null>(null);
  const image = images.data?.find((i) => i.id === imageId) ?? null;
  const everyClassMarked = classes.every((_, c) => strokes.some((s) => s.classIndex === c));
  const ready = !!imageId && (grey || everyClassMarked);
  const body = () => ({
    imageId: imageId!,
    classes,
    ...(grey ? { greyRanges: [range], otherClass: range.classIndex === classes.length - 1 ? 0 : classes.length - 1 } : { strokes }),
  });
  // the live preview: trained again after every stroke, class or range change
  const { mutate } = train;
  useEffect(() => {
    if (ready) mutate(body());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, imageId, strokes, grey, range, classes.length, mutate]);
  return (
    <Stack gap="md" maw={1280}>
      <Title order={1} size="h2">
        {t('recipes.editor.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('recipes.editor.intro')}
      </Text>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="xs">
            <Select
              label={t('recipes.editor.image')}
              placeholder={t('recipes.editor.imagePlaceholder')}
              data={(images.data ?? []).map((i) => ({ value: i.id, label: i.orginalFilename }))}
              value={imageId}
              onChange={(v) => {
                setImageId(v);
                setStrokes([]);
                train.reset();
              }}
              searchable
            />
            {image && (
              <StrokeCanvas
                imageId={image.id}
                width={image.width}
                height={image.height}
                classes={classes}
                activeClass={active}
                strokes={grey ? [] : strokes}
                onStroke={(s) => !grey && setStrokes((all) => [...all, s])}
                overlay={ready ? (train.data?.overlay ?? null) : null}
                overlayOpacity={opacity}
              />
            )}
            {image && (
              <Group gap="xs" wrap="wrap">
                <Text size="xs">{t('recipes.editor.opacity')}</Text>
                <Slider w={160} min={0} max={1} step={0.05} value={opacity} onChange={setOpacity} aria-label={t('recipes.editor.opacity')} />
                <Button size="xs" variant="subtle" disabled={!strokes.length} onClick={() => setStrokes((all) => all.slice(0, -1))}>
                  {t('recipes.editor.undo')}
                </Button>
                {train.isPending && <Text size="xs">{t('recipes.editor.training')}</Text>}
                {train.data && ready && !train.isPending && (
                  <Text size="xs" data-testid="recipe-fractions">
                    {classes
                      .map((c, i) => t('recipes.editor.fraction', { name: c.name, value: formatShare(train.data.fractions[i] ?? 0, i18n.language) }))
                      .join(' · ')}
                  </Text>
                )}
              </Group>
            )}
            {image && !ready && <Alert color="blue">{t('recipes.editor.markEveryClass')}</Alert>}
            {train.error && <Alert color="red">{errorText(t, train.error)}</Alert>}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <Card withBorder>
              <Stack gap="xs">
                <Text fw={600} size="sm">
                  {t('recipes.editor.classes')}
                </Text>
                <ClassPicker
                  classes={classes}
                  onRename={(i, n) => setClasses((all) => renameClass(all, i, n))}
                  onRemove={(i) => setClasses((all) => removeClass(all, i))}
                  onAdd={() => setClasses(addClass)}
                  canAdd={canAddClass(editorClasses)}
                  active={active}
                  onActive={setActive}
                />
              </Stack>
            </Card>
            <Card withBorder>
              <GreyRangePicker classes={classes} enabled={grey} onEnabled={setGrey} range={range} onChange={setRange} />
            </Card>
            <Card withBorder>
              <Stack gap="xs">
                <Text fw={600} size="sm">
                  {t('recipes.editor.measures')}
                </Text>
                <MeasuresPicker classes={classes} measures={measures} onChange={setMeasures} />
              </Stack>
            </Card>
            <Card withBorder>
              <Stack gap="xs">
                <TextInput label={t('recipes.editor.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} />
                {save.error && <Alert color="red">{errorText(t, save.error)}</Alert>}
                <Button
                  disabled={!ready}
                  loading={save.isPending}
                  onClick={() => save.mutate({ id: saved?.id, body: { ...body(), name, measures } }, { onSuccess: (r) => setSaved(r) })}
                >
                  {saved ? t('recipes.editor.saveVersion') : t('recipes.editor.save')}
                </Button>
                {saved && (
                  <Text size="sm" data-testid="recipe-saved">
                    {t('recipes.editor.saved', { name: saved.name, version: saved.version })}
                  </Text>
                )}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
      {saved && <RecipeApplyPanel recipe={saved} />}
    </Stack>
  );
}
