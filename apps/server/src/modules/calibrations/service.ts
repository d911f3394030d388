import { CALIBRATION_NAME_MAX, pixelSizeRule, requiredRule, type Calibration, type UpdateCalibrationBody } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import * as repo from './repo.ts';

/** At most this many named calibrations per user. */
export const MAX_CALIBRATIONS = 200;

const present = (c: repo.CalibrationRow): Calibration => ({
  id: c.id,
  name: c.name,
  pixelSizeUm: c.pixelSizeUm,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

const nameRule = (name: string) => requiredRule(name) ?? (name.length > CALIBRATION_NAME_MAX ? 'calibration.errors.nameTooLong' : null);

/** A user's named calibrations (µm per pixel), by name. Another user's calibration answers 404. */
export async function list(db: Db, ownerId: string): Promise<Calibration[]> {
  return (await repo.listForOwner(db, ownerId)).map(present);
}

export async function create(db: Db, ownerId: string, body: { name: string; pixelSizeUm: number }): Promise<Calibration> {
  const name = body.name.trim();
  new FieldErrors().add('name', nameRule(name)).add('pixelSizeUm', pixelSizeRule(body.pixelSizeUm)).throwIfAny();
  if ((await repo.countForOwner(db, ownerId)) >= MAX_CALIBRATIONS)
    throw new AppError(409, 'TOO_MANY_CALIBRATIONS', 'calibration.errors.tooMany', { max: MAX_CALIBRATIONS });
  return present(await repo.insert(db, { ownerId, name, pixelSizeUm: body.pixelSizeUm }));
}

export async function update(db: Db, ownerId: string, id: string, body: UpdateCalibrationBody): Promise<Calibration> {
  const name = body.name?.trim();
  const errors = new FieldErrors();
  if (name !== undefined) errors.add('name', nameRule(name));
  if (body.pixelSizeUm !== undefined) errors.add('pixelSizeUm', pixelSizeRule(body.pixelSizeUm));
  errors.throwIfAny();
  const row = await repo.update(db, ownerId, id, { name, pixelSizeUm: body.pixelSizeUm });
  if (!row) throw notFound('calibration');
  return present(row);
}

export async function remove(db: Db, ownerId: string, id: string): Promise<void> {
  if (!(await repo.remove(db, ownerId, id))) throw notFound('calibration');
}
