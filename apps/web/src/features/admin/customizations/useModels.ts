/** The models of the selects (id and display name), shared with the jobs page cache. */
import { useQuery } from '@tanstack/react-query';
import { computeModelsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const useModels = () => useQuery({ queryKey: ['admin', 'models-short'], queryFn: () => call(computeModelsApi.short), staleTime: 60_000 });
