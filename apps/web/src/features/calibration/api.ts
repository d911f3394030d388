import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { calibrationsApi, imagesApi, type Calibration, type UpdateCalibrationBody } from '@lamella/contracts';
import { call } from '../../api/client';
import { IMAGES_KEY } from '../jobs/api';

export const CALIBRATIONS_KEY = ['calibrations'] as const;

export function useCalibrations() {
  return useQuery({ queryKey: CALIBRATIONS_KEY, queryFn: () => call(calibrationsApi.list) });
}

export function useCreateCalibration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; pixelSizeUm: number }) => call(calibrationsApi.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CALIBRATIONS_KEY }),
  });
}

export function useUpdateCalibration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateCalibrationBody & { id: string }) => call(calibrationsApi.update, { params: { id }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CALIBRATIONS_KEY }),
  });
}

export function useDeleteCalibration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(calibrationsApi.remove, { params: { id } }),
    onSuccess: (_, id) => qc.setQueryData<Calibration[]>(CALIBRATIONS_KEY, (old) => old?.filter((c) => c.id !== id)),
  });
}

/** Sets (or clears with null) the calibration of one of the user's images. */
export function useSetImagePixelSize() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pixelSizeUm }: { id: string; pixelSizeUm: number | null }) =>
      call(imagesApi.update, { params: { id }, body: { pixelSizeUm } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: IMAGES_KEY }),
  });
}
