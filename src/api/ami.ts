import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AmiCreateRequest, AmiCreateResponse, AmiDeleteResponse, AmiList } from '../../contract/ami';
import { amiRoutes } from '../../contract/routes/ami';
import { errorDetail, hasResponse } from './client';
import { call } from './endpoint';

/** The AMI Manager's messages (docs/reference.md section 8, AMI). */
export const AMI_MESSAGES = {
  loadFailed: 'Failed to load AMIs',
  loadError: (message: string) => `Error loading AMIs: ${message}`,
  createFailed: 'Failed to create AMI',
  createError: 'Error creating AMI',
  deleteFailed: 'Failed to delete AMI',
  deleteError: 'Error deleting AMI',
  created: (id: string) => `AMI creation initiated: ${id}`,
  deleted: (id: string) => `AMI ${id} deleted successfully`,
} as const;

/** After a create, the list is read again this much later (docs/reference.md section 4, AMI state). */
export const AMI_REFETCH_AFTER_CREATE_MS = 2000;

export const amisQueryKey = ['amis'] as const;

/** The images and where this server's recorders run (images are optional on the local provider). */
export async function getAmis(): Promise<AmiList> {
  return (await call(amiRoutes.list)).data;
}

/** While an image is being written (pending) the list is read again every 5 s, so it turns available by itself. */
export const AMI_PENDING_POLL_MS = 5000;

export const amisQueryOptions = () =>
  queryOptions({
    queryKey: amisQueryKey,
    queryFn: getAmis,
    refetchInterval: (query) =>
      query.state.data?.amis.some((ami) => ami.state === 'pending') ? AMI_PENDING_POLL_MS : false,
  });

export function useAmis() {
  return useQuery(amisQueryOptions());
}

/** The server's error, else "Failed to load AMIs"; "Error loading AMIs: {message}" when no answer came. */
export function amiLoadErrorMessage(error: unknown): string {
  if (hasResponse(error)) return errorDetail(error) ?? AMI_MESSAGES.loadFailed;
  return AMI_MESSAGES.loadError(error instanceof Error ? error.message : String(error));
}

/** "Failed to create AMI" when the server refused, "Error creating AMI" when the call itself failed. */
export function amiCreateErrorMessage(error: unknown): string {
  return hasResponse(error) ? AMI_MESSAGES.createFailed : AMI_MESSAGES.createError;
}

/** "Failed to delete AMI" when the server refused, "Error deleting AMI" when the call itself failed. */
export function amiDeleteErrorMessage(error: unknown): string {
  return hasResponse(error) ? AMI_MESSAGES.deleteFailed : AMI_MESSAGES.deleteError;
}

export async function createAmi(body: AmiCreateRequest): Promise<AmiCreateResponse['data']> {
  return (await call(amiRoutes.create, { body })).data;
}

export async function deleteAmi(amiId: string): Promise<AmiDeleteResponse> {
  return call(amiRoutes.delete, { params: { ami_id: amiId } });
}

/** The image is written in the background: the list is read again 2 s after the server accepted the request. */
export function useCreateAmi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAmi,
    onSuccess: () => {
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: amisQueryKey }), AMI_REFETCH_AFTER_CREATE_MS);
    },
  });
}

export function useDeleteAmi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAmi,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: amisQueryKey }),
  });
}
