import { useTrainableImages } from './api';

/** File names of the model's trainable images by id (held-out images are shown by name where still known). */
export function useImageNames(modelId: string): (id: string) => string {
  const images = useTrainableImages(modelId, { pageSize: 500 });
  const names = new Map((images.data?.images ?? []).map((i) => [i.id, i.orginalFilename]));
  return (id) => names.get(id) ?? id.slice(0, 8);
}
