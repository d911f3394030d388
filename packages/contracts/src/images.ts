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
    /** The user's calibration in µm per pixel; null: none given (metadata, scale bar or settings decide). */
    pixelSizeUm: Type.Union([Type.Number(), Type.Null()]),
  },
  { $id: 'Image' },
);
export type Image = Static<typeof Image>;
export const ImageList = Type.Array(Image, { $id: 'ImageList' });
export type ImageList = Static<typeof ImageList>;

/** `multipart/form-data`: one or more files in the field `files` (PNG, JPEG or TIFF by content). Documentation only. */
export const ImageUploadBody = Type.Object(
  {
    files: Type.Array(Type.String({ format: 'binary' }), { minItems: 1 }),
    /** Optional calibration for every file of the request: µm per pixel, a decimal number > 0. */
    pixelSizeUm: Type.Optional(Type.String({ description: 'µm per pixel (> 0), applies to all files of the request' })),
  },
  { $id: 'ImageUploadBody' },
);

/** Limits of a calibration in µm per pixel (from 1 pm to 1 mm per pixel). */
export const PIXEL_SIZE_MIN_UM = 1e-6;
export const PIXEL_SIZE_MAX_UM = 1000;
/** `PATCH /images/{id}`: the image's calibration; null clears it. */
export const UpdateImageBody = Type.Object(
  // One type list rather than a union: the request validator coerces types and would read null as 0 or 0 as null.
  { pixelSizeUm: Type.Unsafe<number | null>({ type: ['number', 'null'], description: 'µm per pixel (> 0); null clears' }) },
  { $id: 'UpdateImageBody', additionalProperties: false },
);
export type UpdateImageBody = Static<typeof UpdateImageBody>;

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
  update: endpoint({
    method: 'PATCH',
    path: '/images/:id',
    operationId: 'updateImage',
    tags,
    summary: "Set or clear the image's calibration (owner only)",
    params: IdParams,
    body: UpdateImageBody,
    response: { 200: Image },
  }),
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

/** GET /images/library: one page of the caller's images, newest first; `search` matches the file name. */
export const LibraryQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 24 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    /** Uploaded on or after this day (YYYY-MM-DD, UTC). */
    from: Type.Optional(Type.String({ format: 'date' })),
    /** Uploaded on or before this day (YYYY-MM-DD, UTC). */
    to: Type.Optional(Type.String({ format: 'date' })),
    /** Only images of this project (one the caller has access to). */
    projectId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { $id: 'LibraryQuery', additionalProperties: false },
);
export type LibraryQuery = Static<typeof LibraryQuery>;
/** An image of the library: the image, its calibration (µm per pixel, null: none), its projects and how often it was analysed. */
export const LibraryImage = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    format: Type.String(),
    size: Type.Integer(),
    validated: Type.Boolean(),
    createdAt: Type.String(),
    pixelSizeUm: Type.Union([Type.Number(), Type.Null()]),
    projects: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  },
  { $id: 'LibraryImage' },
);
export type LibraryImage = Static<typeof LibraryImage>;
export const LibraryPage = Type.Object(
  { items: Type.Array(LibraryImage), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() },
  { $id: 'LibraryPage' },
);
export type LibraryPage = Static<typeof LibraryPage>;
/** Soft-deletes the caller's images (they leave the library, storage usage and projects); their jobs are archived. */
export const DeleteImagesBody = Type.Object(
  { imageIds: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100 }) },
  { $id: 'DeleteImagesBody', additionalProperties: false },
);
export type DeleteImagesBody = Static<typeof DeleteImagesBody>;
export const ImagesDeleted = Type.Object({ deleted: Type.Integer(), archivedJobs: Type.Integer() }, { $id: 'ImagesDeleted' });
export type ImagesDeleted = Static<typeof ImagesDeleted>;

/** The image library (library-service.ts): paged list and soft delete. */
export const imageLibraryApi = {
  list: endpoint({
    method: 'GET',
    path: '/images/library',
    operationId: 'listLibraryImages',
    tags: ['images'],
    querystring: LibraryQuery,
    response: { 200: LibraryPage },
  }),
  remove: endpoint({
    method: 'POST',
    path: '/images/delete',
    operationId: 'deleteImages',
    tags: ['images'],
    body: DeleteImagesBody,
    response: { 200: ImagesDeleted },
  }),
};
