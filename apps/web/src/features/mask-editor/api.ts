import { imagesApi, masksApi, type SavedMask } from '@lamella/contracts';
import { call, callRaw, urlOf } from '../../api/client';

/** The saved mask's label image (PNG). */
export async function fetchMaskImage(maskId: string): Promise<Blob> {
  return (await callRaw(masksApi.image, { params: { id: maskId } })).blob();
}

/** Saves a mask for a job (POST /masks, multipart): the label PNG, its name and the mask it was derived from. */
export function saveMask(input: { jobId: string; label: string; parentId: string; png: Blob }): Promise<SavedMask> {
  const form = new FormData();
  form.append('label', input.label);
  form.append('jobId', input.jobId);
  form.append('parentId', input.parentId);
  form.append('files', input.png, 'mask.png');
  return call(masksApi.save, { body: form });
}

/** The display rendition the mask is drawn over. */
export const displayUrl = (imageId: string) => urlOf(imagesApi.display, { params: { id: imageId } });
