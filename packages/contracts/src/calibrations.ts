import { Type, type Static } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';
import { PIXEL_SIZE_MAX_UM, PIXEL_SIZE_MIN_UM } from './images.ts';

/**
 * The rule for a calibration in µm per pixel: a finite number within PIXEL_SIZE_MIN_UM..PIXEL_SIZE_MAX_UM.
 * Answers the translation key of the failure, or null. Shared by the server and the web forms.
 */
export function pixelSizeRule(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 'calibration.errors.pixelSizeInvalid';
  if (value < PIXEL_SIZE_MIN_UM || value > PIXEL_SIZE_MAX_UM) return 'calibration.errors.pixelSizeRange';
  return null;
}

/** A user's named calibration, e.g. one per objective ("GX53 50×"), picked on upload. */
export const Calibration = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    /** Micrometres per pixel. */
    pixelSizeUm: Type.Number(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'Calibration' },
);
export type Calibration = Static<typeof Calibration>;
export const CalibrationList = Type.Array(Calibration, { $id: 'CalibrationList' });
export type CalibrationList = Static<typeof CalibrationList>;

export const CALIBRATION_NAME_MAX = 100;
export const CreateCalibrationBody = Type.Object(
  { name: Type.String({ maxLength: CALIBRATION_NAME_MAX }), pixelSizeUm: Type.Number() },
  { $id: 'CreateCalibrationBody', additionalProperties: false },
);
export type CreateCalibrationBody = Static<typeof CreateCalibrationBody>;
export const UpdateCalibrationBody = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: CALIBRATION_NAME_MAX })), pixelSizeUm: Type.Optional(Type.Number()) },
  { $id: 'UpdateCalibrationBody', additionalProperties: false },
);
export type UpdateCalibrationBody = Static<typeof UpdateCalibrationBody>;

const tags = ['calibrations'] as const;
export const calibrationsApi = {
  list: endpoint({ method: 'GET', path: '/calibrations', operationId: 'listCalibrations', tags, response: { 200: CalibrationList } }),
  create: endpoint({
    method: 'POST',
    path: '/calibrations',
    operationId: 'createCalibration',
    tags,
    body: CreateCalibrationBody,
    response: { 200: Calibration },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/calibrations/:id',
    operationId: 'updateCalibration',
    tags,
    params: IdParams,
    body: UpdateCalibrationBody,
    response: { 200: Calibration },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/calibrations/:id',
    operationId: 'deleteCalibration',
    tags,
    params: IdParams,
    response: { 204: NoContent },
  }),
};
