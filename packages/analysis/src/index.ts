export { models, getModel, runModel, type AnalysisModel, type ModelName } from './registry.js';
export { validateSettings, resolveSettings, buildSettingsSchema, type SettingsError } from './settings.js';
export { AnalysisError, type AnalysisErrorCode } from './errors.js';
export { decodeImage, sniffFormat, MAX_PIXELS } from './image.js';
export { detectScaleBar } from './scalebar.js';
export { createAnalysisPool, type AnalysisPool } from './pool.js';
export * from './types.js';
