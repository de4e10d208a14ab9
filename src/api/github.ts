import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GithubConfigureRequest,
  GithubConfigureResponse,
  GithubStatus,
  GithubValidateRequest,
  GithubValidationResult,
} from '../../contract/github';
import { githubRoutes } from '../../contract/routes/github';
import { call } from './endpoint';

/** Messages of docs/reference.md section 8, Repository access. */
export const GITHUB_MESSAGES = {
  loadFailed: 'Failed to load GitHub status',
  validationFailed: 'Validation failed',
  configurationFailed: 'Configuration failed',
  networkError: 'Network error occurred',
  validated: 'GitHub access validated successfully',
  configured: 'GitHub configuration saved successfully',
} as const;

export const GITHUB_STATUS_URL = githubRoutes.status.path;
export const githubStatusQueryKey = ['github', 'status'] as const;

export async function getGithubStatus(): Promise<GithubStatus> {
  return (await call(githubRoutes.status)).data;
}

/** The status call's whole body, as the server sent it (View Raw Status). */
export async function getGithubRawStatus(): Promise<unknown> {
  return call(githubRoutes.status);
}

export const githubStatusQueryOptions = () =>
  queryOptions({ queryKey: githubStatusQueryKey, queryFn: getGithubStatus });

export function useGithubStatus() {
  return useQuery(githubStatusQueryOptions());
}

/** With an empty body the server checks the saved configuration (and records the check). */
export async function validateGithub(body?: GithubValidateRequest): Promise<GithubValidationResult> {
  return (await call(githubRoutes.validate, { body: body ?? {} })).data;
}

export async function configureGithub(body: GithubConfigureRequest): Promise<GithubConfigureResponse['data']> {
  return (await call(githubRoutes.configure, { body })).data;
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
