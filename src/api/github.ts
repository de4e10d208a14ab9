import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GithubConfigureRequest,
  GithubConfigureResponse,
  GithubStatus,
  GithubValidateRequest,
  GithubValidationResult,
} from '../../contract/github';
import { api } from './client';

/** Messages of SPEC.md section 8, Repository access. */
export const GITHUB_MESSAGES = {
  loadFailed: 'Failed to load GitHub status',
  validationFailed: 'Validation failed',
  configurationFailed: 'Configuration failed',
  networkError: 'Network error occurred',
  validated: 'GitHub access validated successfully',
  configured: 'GitHub configuration saved successfully',
} as const;

export const GITHUB_STATUS_URL = '/api/github/status';
export const githubStatusQueryKey = ['github', 'status'] as const;

interface Envelope<T> {
  success: true;
  data: T;
}

export async function getGithubStatus(): Promise<GithubStatus> {
  const response = await api.get<Envelope<GithubStatus>>(GITHUB_STATUS_URL);
  return response.data.data;
}

/** The status call's whole body, as the server sent it (View Raw Status). */
export async function getGithubRawStatus(): Promise<unknown> {
  const response = await api.get<unknown>(GITHUB_STATUS_URL);
  return response.data;
}

export const githubStatusQueryOptions = () => queryOptions({ queryKey: githubStatusQueryKey, queryFn: getGithubStatus });

export function useGithubStatus() {
  return useQuery(githubStatusQueryOptions());
}

/** With an empty body the server checks the saved configuration (and records the check). */
export async function validateGithub(body?: GithubValidateRequest): Promise<GithubValidationResult> {
  const response = await api.post<Envelope<GithubValidationResult>>('/api/github/validate', body ?? {});
  return response.data.data;
}

export async function configureGithub(body: GithubConfigureRequest): Promise<GithubConfigureResponse['data']> {
  const response = await api.post<GithubConfigureResponse>('/api/github/configure', body);
  return response.data.data;
}

export function useValidateGithub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: validateGithub,
    onSettled: () => queryClient.invalidateQueries({ queryKey: githubStatusQueryKey }),
  });
}

export function useConfigureGithub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: configureGithub,
    onSuccess: (data) => queryClient.setQueryData(githubStatusQueryKey, data.status),
  });
}
