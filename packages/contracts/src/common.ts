import { Type, type Static } from 'typebox';

/** The one error shape of every failing call (DESIGN.md §3). */
export const ErrorDetail = Type.Object({ field: Type.String(), message: Type.String(), key: Type.Optional(Type.String()) }, { $id: 'ErrorDetail' });
export const ApiErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable code, e.g. VALIDATION_FAILED' }),
    message: Type.String({ description: 'Human text in the caller language' }),
    details: Type.Optional(Type.Array(ErrorDetail)),
  },
  { $id: 'ApiError' },
);
export type ApiErrorBody = Static<typeof ApiErrorBody>;

export const StatusOk = Type.Object({ status: Type.Literal('OK') }, { $id: 'StatusOk' });
export type StatusOk = Static<typeof StatusOk>;

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { $id: 'IdParams' });

export const Roles = ['ADMIN', 'POWER_USER', 'EDITOR', 'USER', 'BLOCKED'] as const;
export const Role = Type.Union([
  Type.Literal('ADMIN'),
  Type.Literal('POWER_USER'),
  Type.Literal('EDITOR'),
  Type.Literal('USER'),
  Type.Literal('BLOCKED'),
]);
export type Role = (typeof Roles)[number];

export const LanguageSchema = Type.Union([Type.Literal('en'), Type.Literal('de')]);

export const FormField = Type.Object({ id: Type.String(), value: Type.Unknown() });
export const FormFields = Type.Array(FormField, { maxItems: 20 });

/** A file answer (image, CSV, PDF…): documented as binary; the server streams it as it is. */
export const FileDownload = Type.String({ format: 'binary', $id: 'FileDownload' });
/** `format` of a table download: csv (default) or xlsx (the same columns; numbers, dates and yes/no as such). */
export const SpreadsheetFormat = Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'csv' });
export type SpreadsheetFormat = Static<typeof SpreadsheetFormat>;
/** Both answer types of a table download. */
export const SPREADSHEET_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
/** No content. */
export const NoContent = Type.Null({ $id: 'NoContent' });
