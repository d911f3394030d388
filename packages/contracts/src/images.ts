import { Type, type Static } from 'typebox';
import { FileDownload, IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/** An uploaded analysis image (user-app.md §7 "Image"); `orginalFilename` is spelled as in the spec. */
export const Image = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    format: Type.String(),
    size: Type.Integer(),
    validated: Type.Boolean(),
    createdAt: Type.String(),
  },
  { $id: 'Image' },
);
export type Image = Static<typeof Image>;
export const ImageList = Type.Array(Image, { $id: 'ImageList' });
export type ImageList = Static<typeof ImageList>;

/** `multipart/form-data`: one or more files in the field `files` (PNG, JPEG or TIFF by content). Documentation only. */
export const ImageUploadBody = Type.Object({ files: Type.Array(Type.String({ format: 'binary' }), { minItems: 1 }) }, { $id: 'ImageUploadBody' });

/** The licence types a storage quota is set for. */
export const QuotaLicenseTypes = ['DEMO', 'IMAGES_LIMITED', 'TIME_LIMITED', 'UNLIMITED', 'FLOATING', 'ENTERPRISE'] as const;
export const QuotaLicenseTypeSchema = Type.Union([
  Type.Literal('DEMO'),
  Type.Literal('IMAGES_LIMITED'),
  Type.Literal('TIME_LIMITED'),
  Type.Literal('UNLIMITED'),
  Type.Literal('FLOATING'),
  Type.Literal('ENTERPRISE'),
]);
export type QuotaLicenseType = (typeof QuotaLicenseTypes)[number];

/** The caller's image storage: bytes used by their originals, their quota (null: none) and the upload limits. */
export const StorageUsage = Type.Object(
  {
    usedBytes: Type.Integer(),
    quotaBytes: Type.Union([Type.Integer(), Type.Null()]),
    licenseType: Type.Union([Type.String(), Type.Null()]),
    maxFileBytes: Type.Integer(),
    maxRequestBytes: Type.Integer(),
  },
  { $id: 'StorageUsage' },
);
export type StorageUsage = Static<typeof StorageUsage>;

/** The storage quota of one licence type in MB; null: no quota. */
export const StorageQuota = Type.Object(
  { licenseType: QuotaLicenseTypeSchema, quotaMb: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000_000 }), Type.Null()]) },
  { $id: 'StorageQuota', additionalProperties: false },
);
export type StorageQuota = Static<typeof StorageQuota>;
export const StorageQuotaList = Type.Array(StorageQuota, { $id: 'StorageQuotaList' });
export type StorageQuotaList = Static<typeof StorageQuotaList>;
export const SetStorageQuotasBody = Type.Object(
  { quotas: Type.Array(StorageQuota, { minItems: 1, maxItems: QuotaLicenseTypes.length }) },
  { $id: 'SetStorageQuotasBody', additionalProperties: false },
);
export type SetStorageQuotasBody = Static<typeof SetStorageQuotasBody>;

const tags = ['images'] as const;
const imageFile = (operationId: string, path: string, produces: readonly string[], summary: string) =>
  endpoint({ method: 'GET', path, operationId, tags, summary, params: IdParams, response: { 200: FileDownload }, produces });

export const imagesApi = {
  upload: endpoint({
    method: 'POST',
    path: '/images',
    operationId: 'uploadImages',
    tags,
    summary: 'Upload analysis images (streamed; per-file, per-request and storage-quota limits)',
    consumes: ['multipart/form-data'],
    body: ImageUploadBody,
    response: { 200: ImageList },
  }),
  list: endpoint({ method: 'GET', path: '/image', operationId: 'listImages', tags, response: { 200: ImageList } }),
  original: imageFile('getImageOriginal', '/image/:id', ['image/png', 'image/jpeg', 'image/tiff'], 'The original file'),
  thumbnail: imageFile('getImageThumbnail', '/image/:id/thumbnail', ['image/webp'], 'The 256 px rendition'),
  display: imageFile('getImageDisplay', '/image/:id/display', ['image/webp'], 'The display rendition (long side at most 2048 px)'),
  storage: endpoint({ method: 'GET', path: '/images/storage', operationId: 'getStorageUsage', tags, response: { 200: StorageUsage } }),
  listQuotas: endpoint({
    method: 'GET',
    path: '/admin/storage-quotas',
    operationId: 'listStorageQuotas',
    tags: ['admin', 'images'],
    response: { 200: StorageQuotaList },
  }),
  setQuotas: endpoint({
    method: 'PUT',
    path: '/admin/storage-quotas',
    operationId: 'setStorageQuotas',
    tags: ['admin', 'images'],
    body: SetStorageQuotasBody,
    response: { 200: StorageQuotaList },
  }),
};
