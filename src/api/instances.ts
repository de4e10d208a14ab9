import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InstanceCost } from '../../contract/instance-cost';
import type { InstancesPage, InstancesPageQuery } from '../../contract/instance-list';
import {
  LAUNCH_DEFAULTS,
  type Instance,
  type InstanceDetails,
  type LaunchConfigInput,
  type LaunchResponse,
  type TerminateResponse,
} from '../../contract/instances';
import { instanceRoutes } from '../../contract/routes/instances';
import { apiErrorMessage, isNetworkError } from './client';
import { call } from './endpoint';

/** The Instances page's messages (docs/reference.md section 8, Instances). */
export const INSTANCE_ERRORS = {
  launch: 'Failed to launch instance',
  network: 'Network error occurred',
  terminate: 'Failed to terminate some instances',
  emergencyStop: 'Emergency stop failed',
  logs: 'Failed to load logs',
  list: 'Failed to connect to API',
} as const;

/** Log lines the viewer fetches, and how often it refreshes a running instance's (docs/reference.md section 9). */
export const LOG_LINES = 100;
export const LOG_REFRESH_MS = 5000;

export const instancesQueryKey = ['instances'] as const;
export const instanceDetailsQueryKey = (id: string) => [...instancesQueryKey, id] as const;
export const instanceLogsQueryKey = (id: string) => [...instancesQueryKey, id, 'logs'] as const;
export const demoStreamQueryKey = ['instances', 'demo-stream'] as const;

/* ---------------------------------------------------------------- list */

export async function getInstances(): Promise<Instance[]> {
  return (await call(instanceRoutes.list)).data;
}

export const instancesQueryOptions = () => queryOptions({ queryKey: instancesQueryKey, queryFn: getInstances });

export function useInstances() {
  return useQuery(instancesQueryOptions());
}

/** The Instances table's pages: refetched when the fleet changes (useFleet), the previous page kept on screen meanwhile. */
export const instancesPageQueryKey = [...instancesQueryKey, 'page'] as const;

export async function getInstancesPage(query: InstancesPageQuery): Promise<InstancesPage> {
  return (await call(instanceRoutes.page, { query })).data;
}

export function useInstancesPage(query: InstancesPageQuery) {
  return useQuery({
    queryKey: [...instancesPageQueryKey, query],
    queryFn: () => getInstancesPage(query),
    placeholderData: keepPreviousData,
  });
}

/* ---------------------------------------------------------------- cost */

/** The cost card re-reads its figures this often: a running machine's hours grow. */
export const COST_REFRESH_MS = 60_000;
export const instanceCostQueryKey = [...instancesQueryKey, 'cost'] as const;

export async function getInstanceCost(): Promise<InstanceCost> {
  return (await call(instanceRoutes.cost)).data;
}

export function useInstanceCost() {
  return useQuery({ queryKey: instanceCostQueryKey, queryFn: getInstanceCost, refetchInterval: COST_REFRESH_MS });
}

/* ---------------------------------------------------------------- details */

export async function getInstanceDetails(id: string): Promise<InstanceDetails> {
  return (await call(instanceRoutes.details, { params: { id } })).data;
}

/** While the instance still records, its details (runtime, bytes) are re-read every 5 s. */
export const instanceDetailsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: instanceDetailsQueryKey(id),
    queryFn: () => getInstanceDetails(id),
    staleTime: 0,
    refetchInterval: (query) =>
      ['pending', 'running', 'stopping'].includes(query.state.data?.state ?? '') ? LOG_REFRESH_MS : false,
  });

export function useInstanceDetails(id: string) {
  return useQuery(instanceDetailsQueryOptions(id));
}

/* ---------------------------------------------------------------- logs */

export async function getInstanceLogs(id: string, live: boolean): Promise<string[]> {
  return (
    await call(instanceRoutes.logs, { params: { id }, query: { lines: LOG_LINES, live: live ? 'true' : 'false' } })
  ).data.logs;
}

/** Live (a running instance): polled every 5 s; otherwise read once. */
export const instanceLogsQueryOptions = (id: string, live: boolean) =>
  queryOptions({
    queryKey: instanceLogsQueryKey(id),
    queryFn: () => getInstanceLogs(id, live),
    staleTime: 0,
    refetchInterval: live ? LOG_REFRESH_MS : false,
    refetchIntervalInBackground: true,
  });

export function useInstanceLogs(id: string, live: boolean) {
  return useQuery(instanceLogsQueryOptions(id, live));
}

/* ---------------------------------------------------------------- demo stream */

export async function getDemoStreamUrl(): Promise<string | null> {
  return (await call(instanceRoutes.demoStream)).data.url;
}

export const demoStreamQueryOptions = () =>
  queryOptions({ queryKey: demoStreamQueryKey, queryFn: getDemoStreamUrl, staleTime: Infinity });

export function useDemoStreamUrl() {
  return useQuery(demoStreamQueryOptions());
}

/* ---------------------------------------------------------------- launch */

export async function launchInstance(config: LaunchConfigInput): Promise<LaunchResponse> {
  return call(instanceRoutes.launch, { body: { configs: [config], max_workers: LAUNCH_DEFAULTS.max_workers } });
}

/** "Failed to launch instance" or the server's message; "Network error occurred" when the server did not answer. */
export function launchErrorMessage(error: unknown): string {
  return apiErrorMessage(error, INSTANCE_ERRORS.launch, INSTANCE_ERRORS.network);
}

export function useLaunchInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: launchInstance,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: instancesQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: instancesPageQueryKey }),
      ]),
  });
}

/* ---------------------------------------------------------------- terminate */

/** Thrown when the server answered but not every instance could be stopped. */
export class PartialTerminationError extends Error {
  constructor(readonly response: TerminateResponse) {
    super(response.message);
    this.name = 'PartialTerminationError';
  }
}

export async function terminateInstances(instanceIds: string[]): Promise<TerminateResponse> {
  const response = await call(instanceRoutes.terminate, { body: { instance_ids: instanceIds } });
  if (response.data.failed > 0) throw new PartialTerminationError(response);
  return response;
}

/** Emergency stop: every running and pending instance. */
export async function terminateAllInstances(): Promise<TerminateResponse> {
  const response = await call(instanceRoutes.terminateAll, { query: { force: 'true' } });
  if (response.data.failed > 0) throw new PartialTerminationError(response);
  return response;
}

/** "Network error occurred" when the server did not answer, else "Failed to terminate some instances". */
export function terminateErrorMessage(error: unknown): string {
  return isNetworkError(error) ? INSTANCE_ERRORS.network : INSTANCE_ERRORS.terminate;
}

export function useTerminateInstances() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: terminateInstances,
    onSettled: () => queryClient.invalidateQueries({ queryKey: instancesQueryKey }),
  });
}

export function useEmergencyStop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: terminateAllInstances,
    onSettled: () => queryClient.invalidateQueries({ queryKey: instancesQueryKey }),
  });
}
