import { Type, type Static } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Recipes (issue 22): the user says what to measure. Classes (names, colours), strokes per class on an image or
 * grey ranges, the pixel classifier trained from them, and which class each model measures. The user's own,
 * shareable with a project, versioned: every save is a new version; a job names the version it ran.
 */
const Uuid = Type.String({ format: 'uuid' });

export const RECIPE_NAME_MAX = 100;
export const RECIPE_CLASSES_MAX = 8;

export const RecipeClass = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 60 }), colour: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }) },
  { $id: 'RecipeClass', additionalProperties: false },
);
export type RecipeClass = Static<typeof RecipeClass>;

const ClassIndex = Type.Integer({ minimum: 0, maximum: RECIPE_CLASSES_MAX - 1 });

/** Which class each model measures: the layer (layer thickness), the phases (porosity / phase fraction), the cracks. */
export const RecipeMeasures = Type.Object(
  {
    layer: Type.Optional(Type.Union([ClassIndex, Type.Null()])),
    phase: Type.Optional(Type.Union([Type.Array(ClassIndex, { maxItems: RECIPE_CLASSES_MAX }), Type.Null()])),
    crack: Type.Optional(Type.Union([ClassIndex, Type.Null()])),
    crackRegion: Type.Optional(Type.Union([ClassIndex, Type.Null()])),
  },
  { $id: 'RecipeMeasures', additionalProperties: false },
);
export type RecipeMeasures = Static<typeof RecipeMeasures>;

/** A brush stroke of one class in the image's pixels. */
export const RecipeStroke = Type.Object(
  {
    classIndex: ClassIndex,
    width: Type.Number({ minimum: 1, maximum: 500 }),
    points: Type.Array(Type.Tuple([Type.Number(), Type.Number()]), { minItems: 1, maxItems: 5000 }),
  },
  { $id: 'RecipeStroke', additionalProperties: false },
);
export type RecipeStroke = Static<typeof RecipeStroke>;

/** The grey-range picker: grey values min..max (0..255) are this class; the rest is `otherClass`. */
export const RecipeGreyRange = Type.Object(
  { classIndex: ClassIndex, min: Type.Integer({ minimum: 0, maximum: 255 }), max: Type.Integer({ minimum: 0, maximum: 255 }) },
  { $id: 'RecipeGreyRange', additionalProperties: false },
);
export type RecipeGreyRange = Static<typeof RecipeGreyRange>;

/** What trains a classifier: strokes on an image (a forest on multi-scale features), or grey ranges. */
export const TrainRecipeBody = Type.Object(
  {
    imageId: Uuid,
    classes: Type.Array(RecipeClass, { minItems: 2, maxItems: RECIPE_CLASSES_MAX }),
    strokes: Type.Optional(Type.Array(RecipeStroke, { maxItems: 500 })),
    greyRanges: Type.Optional(Type.Union([Type.Array(RecipeGreyRange, { minItems: 1, maxItems: RECIPE_CLASSES_MAX }), Type.Null()])),
    otherClass: Type.Optional(ClassIndex),
  },
  { $id: 'TrainRecipeBody', additionalProperties: false },
);
export type TrainRecipeBody = Static<typeof TrainRecipeBody>;

/** The segmentation of an image, answered at once for the live preview. */
export const RecipePreview = Type.Object(
  {
    width: Type.Integer(),
    height: Type.Integer(),
    /** PNG (RGBA: class colours, transparent where unclassified) as a data: URL, for an overlay on the image. */
    overlay: Type.String(),
    /** Area fraction of each class in %. */
    fractions: Type.Array(Type.Number()),
    /** Training pixels used (0 for grey ranges). */
    samples: Type.Integer(),
    /** Training and segmentation time in ms. */
    ms: Type.Integer(),
  },
  { $id: 'RecipePreview' },
);
export type RecipePreview = Static<typeof RecipePreview>;

export const SaveRecipeBody = Type.Object(
  {
    name: Type.String({ maxLength: RECIPE_NAME_MAX }),
    imageId: Uuid,
    classes: Type.Array(RecipeClass, { minItems: 2, maxItems: RECIPE_CLASSES_MAX }),
    measures: RecipeMeasures,
    strokes: Type.Optional(Type.Array(RecipeStroke, { maxItems: 500 })),
    greyRanges: Type.Optional(Type.Union([Type.Array(RecipeGreyRange, { minItems: 1, maxItems: RECIPE_CLASSES_MAX }), Type.Null()])),
    otherClass: Type.Optional(ClassIndex),
    /** Share with this project (its members read and apply the recipe), or null. */
    projectId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { $id: 'SaveRecipeBody', additionalProperties: false },
);
export type SaveRecipeBody = Static<typeof SaveRecipeBody>;

export const Recipe = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    /** The current (latest) version. */
    version: Type.Integer(),
    classes: Type.Array(RecipeClass),
    measures: RecipeMeasures,
    kind: Type.Union([Type.Literal('forest'), Type.Literal('grey-range')]),
    imageId: Type.Union([Type.String(), Type.Null()]),
    strokes: Type.Array(RecipeStroke),
    greyRanges: Type.Union([Type.Array(RecipeGreyRange), Type.Null()]),
    projectId: Type.Union([Type.String(), Type.Null()]),
    /** Whether the caller owns it (else it is shared with a project of theirs: read and apply only). */
    own: Type.Boolean(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'Recipe' },
);
export type Recipe = Static<typeof Recipe>;
export const RecipeList = Type.Array(Recipe, { $id: 'RecipeList' });
export type RecipeList = Static<typeof RecipeList>;

export const RecipePreviewBody = Type.Object(
  { imageId: Uuid, version: Type.Optional(Type.Integer({ minimum: 1 })) },
  { $id: 'RecipePreviewBody', additionalProperties: false },
);
export type RecipePreviewBody = Static<typeof RecipePreviewBody>;

const tags = ['recipes'] as const;
export const recipesApi = {
  list: endpoint({ method: 'GET', path: '/recipes', operationId: 'listRecipes', tags, response: { 200: RecipeList } }),
  /** Trains a classifier on the strokes (or grey ranges) and answers the image's segmentation at once; stores nothing. */
  train: endpoint({
    method: 'POST',
    path: '/recipes/train',
    operationId: 'trainRecipe',
    tags,
    body: TrainRecipeBody,
    response: { 200: RecipePreview },
  }),
  create: endpoint({ method: 'POST', path: '/recipes', operationId: 'createRecipe', tags, body: SaveRecipeBody, response: { 200: Recipe } }),
  get: endpoint({ method: 'GET', path: '/recipes/:id', operationId: 'getRecipe', tags, params: IdParams, response: { 200: Recipe } }),
  /** Saves a new version (trained again from the body). */
  update: endpoint({
    method: 'PUT',
    path: '/recipes/:id',
    operationId: 'updateRecipe',
    tags,
    params: IdParams,
    body: SaveRecipeBody,
    response: { 200: Recipe },
  }),
  remove: endpoint({ method: 'DELETE', path: '/recipes/:id', operationId: 'deleteRecipe', tags, params: IdParams, response: { 204: NoContent } }),
  /** The recipe's segmentation of another image (live preview before applying it to a batch). */
  preview: endpoint({
    method: 'POST',
    path: '/recipes/:id/preview',
    operationId: 'previewRecipe',
    tags,
    params: IdParams,
    body: RecipePreviewBody,
    response: { 200: RecipePreview },
  }),
};
