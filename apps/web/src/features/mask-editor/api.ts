import { imagesApi, jobsApi, masksApi, type SavedMask } from '@lamella/contracts';
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

/** The model's own segmentation of a job (its result file segmentation.png), or null when the job has none. */
export async function fetchJobSegmentation(jobId: string): Promise<Blob | null> {
  const job = await call(jobsApi.get, { params: { id: jobId } });
  if (!job.resultId) return null;
  try {
    return await (await callRaw(jobsApi.resultFile, { params: { resultId: job.resultId, filename: 'segmentation.png' } })).blob();
  } catch {
    return null; // an older model version writes none: start empty
  }
}
