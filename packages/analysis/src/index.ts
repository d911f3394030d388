export { models, getModel, runModel, type AnalysisModel, type ModelName } from './registry.js';
export { validateSettings, resolveSettings, buildSettingsSchema, type SettingsError } from './settings.js';
export { AnalysisError, type AnalysisErrorCode } from './errors.js';
export { decodeImage, sniffFormat, MAX_PIXELS } from './image.js';
export { detectScaleBar } from './scalebar.js';
export { createAnalysisPool, type AnalysisPool } from './pool.js';
export * from './types.js';
export {
  trainClassifier,
  applyClassifier,
  checkClassifier,
  greyRangeClassifier,
  ClassifierError,
  CLASSIFIER_FORMAT,
  type PixelClassifier,
  type Stroke,
  type GreyRange,
  type Segmentation,
} from './classifier/pixelClassifier.js';
export { type RecipeRun, type RecipeClass } from './classifier/recipe.js';
export { recipeMeasures, type RecipeMeasures } from './classifier/measures.js';
export {
  createClassifierWorker,
  ClassifierTaskError,
  type ClassifierWorker,
  type ClassifierTask,
  type ClassifierTaskResult,
} from './classifier/trainer.js';
export {
  fineTune,
  trainingAvailable,
  checkFineTuneInputs,
  TrainingError,
  type FineTuneImage,
  type FineTuneProgress,
  type TrainingErrorCode,
} from './training/finetune.js';
export { type TrainSpec } from './training/protocol.js';
export { validateNetworks, type TrainingValidation, type NetworkScore } from './training/validation.js';
