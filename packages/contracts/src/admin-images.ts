import { Type, type Static } from 'typebox';
import { FileDownload, SPREADSHEET_TYPES, SpreadsheetFormat } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Back-office images (back-office.md §2 "Images screen", §7 "Images"): every uploaded image with its owner, paged
 * (the next page number in the `x-next-page` header), the metadata report, and the public images library
 * (PNG/JPEG files staff put into the rich text of insights, news and example results, served to everyone at
 * `/image/public/{filename}`). ADMIN only (§6: no permission a POWER_USER could hold names these pages).
 */

export const ADMIN_IMAGES_PAGE_SIZE = 50;
/** The largest public image accepted, in bytes (10 MB). */
export const PUBLIC_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** A public image's stored name: lower-case letters, digits and dashes, then `.png` or `.jpg`. */
export const PUBLIC_IMAGE_FILENAME = '^[a-z0-9][a-z0-9-]{0,99}\\.(png|jpg)$';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' });

export const AdminImagesQuery = Type.Object(
  {
    sortKey: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('owner')], { description: 'default createdAt' })),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default desc' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'from 1' })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    /** The spec's `filters`: owner, uploaded between two days (inclusive, UTC), training consent, deleted. */
    userId: Type.Optional(Type.String({ format: 'uuid' })),
    startDate: Type.Optional(Day),
    endDate: Type.Optional(Day),
    allowedTrainingUse: Type.Optional(Type.Boolean()),
    isDeleted: Type.Optional(Type.Boolean()),
    /**
     * The Training filter (issue 25): true, only trainable images (owner's consent, image allowed for training, a
     * submitted corrected mask of a job of a model); false, only the others. With `trainingModelId`, of that model.
     */
    trainable: Type.Optional(Type.Boolean()),
    trainingModelId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { $id: 'AdminImagesQuery', additionalProperties: false },
);
export type AdminImagesQuery = Static<typeof AdminImagesQuery>;

/** The metadata report's file format (headers in the reader's language, their CSV style). */
export const AdminImagesReportQuery = Type.Object(
  { format: Type.Optional(SpreadsheetFormat) },
  { $id: 'AdminImagesReportQuery', additionalProperties: false },
);
export type AdminImagesReportQuery = Static<typeof AdminImagesReportQuery>;

export const AdminImageOwner = Type.Object(
  { id: Type.String(), name: Type.String(), surname: Type.String(), email: Type.String() },
  { $id: 'AdminImageOwner' },
);
export type AdminImageOwner = Static<typeof AdminImageOwner>;

/** One row of the back-office images table; the thumbnail is `GET /images/{id}/thumbnail` (ADMIN may read any). */
export const AdminImage = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    format: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    size: Type.Integer(),
    allowedTrainingUse: Type.Boolean(),
    isDeleted: Type.Boolean(),
    deletedAt: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    owner: AdminImageOwner,
  },
  { $id: 'AdminImage' },
);
export type AdminImage = Static<typeof AdminImage>;
export const AdminImageList = Type.Array(AdminImage, { $id: 'AdminImageList' });
export type AdminImageList = Static<typeof AdminImageList>;

export const AdminImageOwnersQuery = Type.Object(
  { search: Type.Optional(Type.String({ maxLength: 200 })) },
  { $id: 'AdminImageOwnersQuery', additionalProperties: false },
);
export type AdminImageOwnersQuery = Static<typeof AdminImageOwnersQuery>;
export const AdminImageOwnerList = Type.Array(AdminImageOwner, { $id: 'AdminImageOwnerList' });
export type AdminImageOwnerList = Static<typeof AdminImageOwnerList>;

/**
 * A file of the public images library. `filename` is made from the uploaded file's name and a random part;
 * `url` is where everyone reads it (`/image/public/{filename}`).
 */
export const PublicImage = Type.Object(
  {
    filename: Type.String(),
    url: Type.String(),
    /** The uploaded file's own name. */
    orginalFilename: Type.String(),
    contentType: Type.String(),
    size: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
    createdAt: Type.String(),
  },
  { $id: 'PublicImage' },
);
export type PublicImage = Static<typeof PublicImage>;
export const PublicImageList = Type.Array(PublicImage, { $id: 'PublicImageList' });
export type PublicImageList = Static<typeof PublicImageList>;

/** `multipart/form-data`: one or more PNG or JPEG files (by content) in the field `files`. Documentation only. */
export const PublicImageUploadBody = Type.Object(
  { files: Type.Array(Type.String({ format: 'binary' }), { minItems: 1 }) },
  { $id: 'PublicImageUploadBody' },
);
export const PublicImageParams = Type.Object(
  { filename: Type.String({ pattern: PUBLIC_IMAGE_FILENAME, maxLength: 110 }) },
  { $id: 'PublicImageParams' },
);
export type PublicImageParams = Static<typeof PublicImageParams>;
export const PublicImageDeleted = Type.Object(
  { filename: Type.String(), deleted: Type.Boolean(), message: Type.String() },
  { $id: 'PublicImageDeleted' },
);
export type PublicImageDeleted = Static<typeof PublicImageDeleted>;

const tags = ['admin-images'] as const;
export const adminImagesApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/images',
    operationId: 'listAdminImages',
    tags,
    summary: 'Every uploaded image with its owner, one page; the next page number is in the x-next-page header (absent on the last page)',
    querystring: AdminImagesQuery,
    response: { 200: AdminImageList },
  }),
  owners: endpoint({
    method: 'GET',
    path: '/admin/images/owners',
    operationId: 'listAdminImageOwners',
    tags,
    summary: "Users who uploaded images (the Owner column's filter), by name or e-mail, at most 50",
    querystring: AdminImageOwnersQuery,
    response: { 200: AdminImageOwnerList },
  }),
  metadataReport: endpoint({
    method: 'GET',
    path: '/admin/images/metadata-report',
    operationId: 'downloadImagesMetadataReport',
    tags,
    summary: "CSV (or `format=xlsx`) of every image's metadata, newest first (streamed)",
    querystring: AdminImagesReportQuery,
    produces: SPREADSHEET_TYPES,
    response: { 200: FileDownload },
  }),
  publicList: endpoint({
    method: 'GET',
    path: '/admin/images/public',
    operationId: 'listPublicImages',
    tags,
    summary: 'The public images library, newest first',
    response: { 200: PublicImageList },
  }),
  publicUpload: endpoint({
    method: 'POST',
    path: '/admin/images/public',
    operationId: 'uploadPublicImages',
    tags,
    consumes: ['multipart/form-data'],
    body: PublicImageUploadBody,
    response: { 200: PublicImageList },
  }),
  publicRemove: endpoint({
    method: 'DELETE',
    path: '/admin/images/public/:filename',
    operationId: 'deletePublicImage',
    tags,
    params: PublicImageParams,
    response: { 200: PublicImageDeleted },
  }),
};

/** Served outside /api, to everyone: `GET /image/public/{filename}` (registered at the root by the server). */
export const publicImageFile = endpoint({
  method: 'GET',
  path: '/image/public/:filename',
  operationId: 'getPublicImage',
  tags,
  params: PublicImageParams,
  produces: ['image/png', 'image/jpeg'],
  response: { 200: FileDownload },
});
