import { Type, type Static } from 'typebox';
import { FileDownload, IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/** A saved user mask (user-app.md §7 POST /masks). */
export const SavedMask = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    filename: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    isSubmitted: Type.Boolean(),
    jobId: Type.String(),
  },
  { $id: 'SavedMask' },
);
export type SavedMask = Static<typeof SavedMask>;

/**
 * `multipart/form-data`: the label image in `files` (PNG or JPEG, the image's size), the job it belongs to,
 * an optional label and the mask it was derived from. Documentation only: the route reads the parts itself.
 */
export const SaveMaskBody = Type.Object(
  {
    files: Type.String({ format: 'binary' }),
    jobId: Type.String({ format: 'uuid' }),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    parentId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { $id: 'SaveMaskBody' },
);
export type SaveMaskBody = Static<typeof SaveMaskBody>;

const tags = ['masks'] as const;
export const masksApi = {
  save: endpoint({
    method: 'POST',
    path: '/masks',
    operationId: 'saveMask',
    tags,
    consumes: ['multipart/form-data'],
    body: SaveMaskBody,
    response: { 200: SavedMask },
  }),
  image: endpoint({
    method: 'GET',
    path: '/masks/:id/image',
    operationId: 'getMaskImage',
    tags,
    params: IdParams,
    response: { 200: FileDownload },
    produces: ['image/png'],
  }),
};
