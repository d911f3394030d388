import { validationFailed, type ErrorDetail } from './errors.ts';

/** Collects rule failures (translation keys) per field and throws one 400 naming them all. */
export class FieldErrors {
  private readonly details: ErrorDetail[] = [];

  add(field: string, key: string | null, vars?: Record<string, string | number>): this {
    if (key && !this.details.some((d) => d.field === field)) this.details.push({ field, key, vars });
    return this;
  }

  throwIfAny(): void {
    if (this.details.length) throw validationFailed(this.details);
  }
}
