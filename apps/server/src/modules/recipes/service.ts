import type { Recipe, RecipeMeasures, RecipePreview, SaveRecipeBody, TrainRecipeBody } from '@lamella/contracts';
import { ClassifierTaskError, recipeMeasures, type ClassifierJson, type ClassifierWorker } from '@lamella/analysis/classifier';
import type { Db } from '../../platform/db/client.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { readableImage } from '../images/service.ts';
import { assertProjectVisible } from '../projects/access.ts';
import * as repo from './repo.ts';

/**
 * Recipes (issue 22): the user's named pixel classifiers. Training runs in the analysis package's classifier worker
 * (a worker thread), never on the event loop; the segmentation comes back at once for the live preview. Every save
 * trains again from the strokes (seeded: the same strokes give the same classifier) and stores a new version.
 */
export interface RecipesDeps {
  db: Db;
  storage: Storage;
  classifier: ClassifierWorker;
}

type Row = { r: repo.RecipeRow; v: repo.RecipeVersionRow };

function present(row: Row, userId: string): Recipe {
  const { r, v } = row;
  return {
    id: r.id,
    name: r.name,
    version: v.version,
    classes: v.classes,
    measures: v.measures as RecipeMeasures,
    kind: (v.classifier as { kind?: string }).kind === 'grey-range' ? 'grey-range' : 'forest',
    imageId: v.imageId,
    strokes: v.strokes as Recipe['strokes'],
    greyRanges: (v.greyRanges as Recipe['greyRanges']) ?? null,
    projectId: r.projectId,
    own: r.ownerId === userId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The rules a body must meet beyond its schema: class indexes within the classes, a stroke for every class. */
function checkTraining(body: TrainRecipeBody, e: FieldErrors): void {
  const K = body.classes.length;
  const strokes = body.strokes ?? [];
  if (body.greyRanges?.length) {
    if (body.greyRanges.some((g) => g.classIndex >= K || g.min > g.max)) e.add('greyRanges', 'recipes.errors.greyRangeInvalid');
    if (body.otherClass !== undefined && body.otherClass >= K) e.add('otherClass', 'recipes.errors.classIndexInvalid');
  } else {
    if (strokes.some((s) => s.classIndex >= K)) e.add('strokes', 'recipes.errors.classIndexInvalid');
    for (let c = 0; c < K; c++)
      if (!strokes.some((s) => s.classIndex === c)) e.add('strokes', 'recipes.errors.strokeEveryClass', { name: body.classes[c].name });
  }
}

function checkMeasures(m: RecipeMeasures, K: number, e: FieldErrors): void {
  const all = [m.layer, m.crack, m.crackRegion, ...(m.phase ?? [])].filter((c) => c !== null && c !== undefined);
  if (!all.length) e.add('measures', 'recipes.errors.measuresRequired');
  if (all.some((c) => (c as number) >= K)) e.add('measures', 'recipes.errors.classIndexInvalid');
}

async function imageBytes(deps: RecipesDeps, auth: AuthContext, imageId: string): Promise<Buffer> {
  const image = await readableImage(deps.db, auth, imageId);
  return deps.storage.get(image.filename);
}

/** Runs a classifier task; its refusals become 400s naming the field. */
async function runTask(deps: RecipesDeps, task: Parameters<ClassifierWorker['run']>[0]) {
  try {
    return await deps.classifier.run(task);
  } catch (err) {
    if (err instanceof ClassifierTaskError) {
      if (err.code === 'TOO_FEW_STROKES')
        throw new AppError(400, 'VALIDATION_FAILED', 'errors.validationFailed', {}, [
          { field: 'strokes', key: 'recipes.errors.strokeEveryClass', vars: { name: '' } },
        ]);
      if (['UNSUPPORTED_IMAGE', 'CORRUPT_IMAGE', 'IMAGE_TOO_LARGE'].includes(err.code))
        throw new AppError(400, err.code, 'recipes.errors.imageUnreadable', {}, [{ field: 'imageId', key: 'recipes.errors.imageUnreadable' }]);
      if (err.code === 'INVALID_CLASSIFIER') throw new AppError(400, 'INVALID_CLASSIFIER', 'recipes.errors.classifierInvalid');
    }
    throw err;
  }
}

function previewOf(out: Awaited<ReturnType<ClassifierWorker['run']>>): RecipePreview {
  return {
    width: out.width,
    height: out.height,
    overlay: `data:image/png;base64,${Buffer.from(out.overlay).toString('base64')}`,
    fractions: out.fractions.map((f) => Math.round(f * 100) / 100),
    samples: out.samples,
    ms: out.ms,
  };
}

function trainTask(body: TrainRecipeBody, image: Buffer) {
  return {
    kind: 'train' as const,
    image: new Uint8Array(image),
    colours: body.classes.map((c) => c.colour),
    strokes: body.greyRanges?.length ? [] : (body.strokes ?? []),
    greyRanges: body.greyRanges ?? null,
    otherClass: body.otherClass,
  };
}

/** POST /recipes/train: trains on the strokes (or grey ranges) and answers the segmentation; stores nothing. */
export async function train(deps: RecipesDeps, auth: AuthContext, body: TrainRecipeBody): Promise<RecipePreview> {
  const e = new FieldErrors();
  checkTraining(body, e);
  e.throwIfAny();
  const image = await imageBytes(deps, auth, body.imageId);
  return previewOf(await runTask(deps, trainTask(body, image)));
}

async function readSave(
  deps: RecipesDeps,
  auth: AuthContext,
  body: SaveRecipeBody,
): Promise<{ name: string; projectId: string | null; values: repo.VersionValues }> {
  const e = new FieldErrors();
  const name = (body.name ?? '').trim();
  if (!name) e.add('name', 'recipes.errors.nameRequired');
  checkTraining(body, e);
  checkMeasures(body.measures, body.classes.length, e);
  e.throwIfAny();
  const projectId = body.projectId ?? null;
  if (projectId) await assertProjectVisible(deps.db, auth.user.id, projectId);
  const image = await imageBytes(deps, auth, body.imageId);
  const out = await runTask(deps, trainTask(body, image));
  return {
    name,
    projectId,
    values: {
      classes: body.classes,
      measures: body.measures,
      imageId: body.imageId,
      strokes: body.greyRanges?.length ? [] : (body.strokes ?? []),
      greyRanges: body.greyRanges ?? null,
      classifier: out.classifier,
      createdById: auth.user.id,
    },
  };
}

async function one(db: Db, userId: string, id: string): Promise<Recipe> {
  const row = await repo.findReadable(db, userId, id);
  if (!row) throw notFound('recipe');
  return present(row, userId);
}

export async function list(db: Db, auth: AuthContext): Promise<Recipe[]> {
  return (await repo.listReadable(db, auth.user.id)).map((row) => present(row, auth.user.id));
}

export const get = (db: Db, auth: AuthContext, id: string) => one(db, auth.user.id, id);

export async function create(deps: RecipesDeps, auth: AuthContext, body: SaveRecipeBody): Promise<Recipe> {
  const { name, projectId, values } = await readSave(deps, auth, body);
  const id = await repo.insert(deps.db, auth.user.id, name, projectId, values);
  return one(deps.db, auth.user.id, id);
}

/** PUT /recipes/{id}: the owner saves a new version; another user's recipe answers 404 (shared ones are read-only). */
export async function update(deps: RecipesDeps, auth: AuthContext, id: string, body: SaveRecipeBody): Promise<Recipe> {
  const existing = await repo.findReadable(deps.db, auth.user.id, id);
  if (!existing || existing.r.ownerId !== auth.user.id) throw notFound('recipe');
  const { name, projectId, values } = await readSave(deps, auth, body);
  const done = await deps.db.transaction((tx) => repo.addVersion(tx as unknown as Db, auth.user.id, id, name, projectId, values));
  if (!done) throw notFound('recipe');
  return one(deps.db, auth.user.id, id);
}

export async function remove(db: Db, auth: AuthContext, id: string): Promise<void> {
  if (!(await repo.remove(db, auth.user.id, id))) throw notFound('recipe');
}

/** POST /recipes/{id}/preview: the recipe's (current or given version's) segmentation of another image of the caller's. */
export async function preview(deps: RecipesDeps, auth: AuthContext, id: string, body: { imageId: string; version?: number }): Promise<RecipePreview> {
  const row = await repo.findReadable(deps.db, auth.user.id, id, body.version);
  if (!row) throw notFound('recipe');
  const image = await imageBytes(deps, auth, body.imageId);
  return previewOf(
    await runTask(deps, {
      kind: 'apply',
      image: new Uint8Array(image),
      colours: row.v.classes.map((c) => c.colour),
      classifier: row.v.classifier as ClassifierJson,
    }),
  );
}

/**
 * For jobs: the version of a recipe the caller may read that the jobs will run with (the given or the current one),
 * checked to name a class for every model; 404 when the caller may not read it.
 */
export async function recipeForJobs(
  db: Db,
  userId: string,
  id: string,
  version: number | null | undefined,
  models: string[],
): Promise<{ id: string; version: number }> {
  const row = await repo.findReadable(db, userId, id, version ?? undefined);
  if (!row) throw notFound('recipe');
  const measures = row.v.measures as RecipeMeasures;
  const unmeasured = models.filter((m) => !recipeMeasures(m, measures));
  if (unmeasured.length)
    throw new AppError(400, 'RECIPE_NOT_FOR_MODEL', 'recipes.errors.notForModel', { models: unmeasured.join(', ') }, [
      { field: 'recipeId', key: 'recipes.errors.notForModel', vars: { models: unmeasured.join(', ') } },
    ]);
  return { id: row.r.id, version: row.v.version };
}

/** What a launcher runs a job's recipe with (packages/analysis RecipeRun). */
export interface RecipeRun {
  id: string;
  name: string;
  version: number;
  classes: Array<{ name: string; colour: string }>;
  measures: RecipeMeasures;
  classifier: ClassifierJson;
}

/** For the dispatcher: what a launcher runs a job's recipe version with; null when the recipe was deleted. */
export async function recipeRun(db: Db, id: string, version: number): Promise<RecipeRun | null> {
  const row = await repo.findVersion(db, id, version);
  if (!row) return null;
  return {
    id: row.r.id,
    name: row.r.name,
    version: row.v.version,
    classes: row.v.classes,
    measures: row.v.measures as RecipeMeasures,
    classifier: row.v.classifier as ClassifierJson,
  };
}
