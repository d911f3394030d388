export type AnalysisErrorCode =
  | 'UNSUPPORTED_IMAGE'
  | 'CORRUPT_IMAGE'
  | 'IMAGE_TOO_LARGE'
  | 'INVALID_SETTINGS'
  | 'INVALID_MASK'
  | 'INVALID_CROP'
  | 'UNKNOWN_MODEL'
  | 'UNKNOWN_VERSION'
  | 'BLANK_IMAGE'
  | 'IMAGE_TOO_SMALL'
  | 'TOO_FEW_FEATURES'
  | 'NO_LAYER_FOUND'
  | 'NOT_A_GRAIN_STRUCTURE'
  | 'NOT_CRACK_LIKE'
  | 'ANALYSIS_FAILED';

/** Typed error with a stable machine-readable `code`. */
export class AnalysisError extends Error {
  readonly code: AnalysisErrorCode;
  readonly details?: unknown;
  constructor(code: AnalysisErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AnalysisError';
    this.code = code;
    this.details = details;
  }
}
