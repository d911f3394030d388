import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectsApi, type CreateProjectBody, type ShareProjectBody, type UpdateProjectBody } from '@lamella/contracts';
import { call } from '../../api/client';

export const PROJECTS_KEY = ['projects'] as const;
const projectKey = (id: string) => [...PROJECTS_KEY, id] as const;

export function useProjects() {
  return useQuery({ queryKey: PROJECTS_KEY, queryFn: () => call(projectsApi.list) });
}

export function useProject(id: string | null) {
  return useQuery({
    queryKey: projectKey(id ?? ''),
    queryFn: () => call(projectsApi.get, { params: { id: id ?? '' } }),
    enabled: Boolean(id),
    retry: false,
  });
}

export function useProjectImages(id: string) {
  return useQuery({ queryKey: [...projectKey(id), 'images'], queryFn: () => call(projectsApi.images, { params: { id } }) });
}

export function useProjectAccess(id: string) {
  return useQuery({ queryKey: [...projectKey(id), 'access'], queryFn: () => call(projectsApi.access, { params: { id } }) });
}

export function useTemplateOptions() {
  return useQuery({ queryKey: ['project-templates'], queryFn: () => call(projectsApi.templates) });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: PROJECTS_KEY });
}

export function useCreateProject() {
  const done = useInvalidate();
  return useMutation({ mutationFn: (body: CreateProjectBody) => call(projectsApi.create, { body }), onSuccess: done });
}

export function useUpdateProject(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (body: UpdateProjectBody) => call(projectsApi.update, { params: { id }, body }), onSuccess: done });
}

export function useDeleteProject() {
  const done = useInvalidate();
  return useMutation({ mutationFn: (id: string) => call(projectsApi.remove, { params: { id } }), onSuccess: done });
}

export function useShareProject(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (body: ShareProjectBody) => call(projectsApi.share, { params: { id }, body }), onSuccess: done });
}

export function useRevokeAccess(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (userId: string) => call(projectsApi.revoke, { params: { id, userId } }), onSuccess: done });
}

export function useCancelInvitation(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (email: string) => call(projectsApi.cancelInvitation, { params: { id }, query: { email } }), onSuccess: done });
}

export function useAddProjectImages(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (imageIds: string[]) => call(projectsApi.addImages, { params: { id }, body: { imageIds } }), onSuccess: done });
}

export function useRemoveProjectImage(id: string) {
  const done = useInvalidate();
  return useMutation({ mutationFn: (imageId: string) => call(projectsApi.removeImage, { params: { id, imageId } }), onSuccess: done });
}

/** The project's fields (its images) with the job that represents each per model; polled while a job runs. */
export function useProjectFields(id: string) {
  return useQuery({
    queryKey: [...projectKey(id), 'fields'],
    queryFn: () => call(projectsApi.fields, { params: { id } }),
    refetchInterval: (query) =>
      query.state.data?.some((f) => f.models.some((m) => m.jobs.some((j) => j.status === 'NEW' || j.status === 'PENDING'))) ? 3000 : false,
  });
}

/** Accepts a job as a field (locks it) or, with `jobId: null`, releases the field (owner or EDITOR). */
export function useChooseField(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ imageId, modelId, jobId }: { imageId: string; modelId: string; jobId: string | null }) =>
      jobId
        ? call(projectsApi.acceptField, { params: { id, imageId, modelId }, body: { jobId } })
        : call(projectsApi.releaseField, { params: { id, imageId, modelId } }),
    onSuccess: (fields) => qc.setQueryData([...projectKey(id), 'fields'], fields),
  });
}
