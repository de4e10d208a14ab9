import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ExtractionResult,
  GenerateRequest,
  GenerateResult,
  GeocodeResult,
  Mosque,
  MosqueCreateRequest,
  MosqueUpdateRequest,
  PrayerTimeRecord,
} from '../../contract/mosques';
import type { MosqueBulkRequest, MosqueBulkResult, MosquesListQuery, MosquesSummary } from '../../contract/mosque-list';
import { configRoutes, mosqueRoutes } from '../../contract/routes/mosques';
import { apiErrorMessage } from './client';
import { call } from './endpoint';
import { mosquesPageReadKey, type MosquesPage } from './mosques-page';
import { takeArrived, takePreloaded } from './preloaded';

/** The Config Generator's messages (docs/reference.md section 8, Mosques). */
export const MOSQUE_MESSAGES = {
  addFailed: 'Failed to add mosque',
  updateFailed: 'Failed to update mosque',
  deleteFailed: 'Failed to delete mosque',
  network: 'Network error occurred',
  generateFailed: 'Failed to generate configurations',
  loadFailed: 'Failed to load mosques',
  added: 'Mosque added successfully',
  updated: 'Mosque updated successfully',
  deleted: (id: string) => `Mosque ${id} deleted successfully`,
  generated: (count: number) => `Generated ${count} recording configurations`,
  bulkFailed: 'Failed to change the selected mosques',
  bulkMissing: (count: number) => `${count} of the selected mosques no longer exist`,
} as const;

/** The server's message, else "Network error occurred" when no answer came, else `fallback`. */
export function mosqueErrorMessage(error: unknown, fallback: string): string {
  return apiErrorMessage(error, fallback, MOSQUE_MESSAGES.network);
}

/** Everything the page reads sits under one key, so a change to a mosque re-reads mosques, counts and prayer times. */
export const configQueryKey = ['config'] as const;
export const mosquesQueryKey = [...configQueryKey, 'mosques'] as const;
export const mosquesSummaryQueryKey = [...configQueryKey, 'summary'] as const;
export const prayerTimesQueryKey = [...configQueryKey, 'prayer-times'] as const;
/** Outside configQueryKey: a save elsewhere must not swap the id the Add dialog shows. */
export const newMosqueIdQueryKey = (nonce: number) => ['mosque-new-id', nonce] as const;

/* ---------------------------------------------------------------- reads */

/** One page of the mosque table: the rows and how many mosques match. */
export async function getMosquesPage(query: MosquesListQuery): Promise<MosquesPage> {
  const { mosques, total } = (await call(mosqueRoutes.list, { query })).data;
  return { mosques, total: total ?? mosques.length };
}

/** The page on screen stays while the next one loads, so paging and typing a search do not flash an empty table. */
export function useMosquesPage(query: MosquesListQuery) {
  const key = mosquesPageReadKey(query);
  // A preloaded page that has already come is the query's first data: the table renders with its rows at once.
  let arrived: { value: MosquesPage; at: number } | undefined;
  return useQuery({
    queryKey: [...mosquesQueryKey, 'page', query],
    queryFn: () => takePreloaded(key, () => getMosquesPage(query)),
    initialData: () => (arrived = takeArrived<MosquesPage>(key))?.value,
    initialDataUpdatedAt: () => arrived?.at,
    placeholderData: keepPreviousData,
  });
}

/** The Config cards' four counts, worked out on the server. */
export async function getMosquesSummary(): Promise<MosquesSummary> {
  return (await call(mosqueRoutes.summary)).data;
}

export function useMosquesSummary() {
  return useQuery({ queryKey: mosquesSummaryQueryKey, queryFn: getMosquesSummary });
}

/** The coming Friday prayers of the given mosques (a table's page), never the whole fleet's. */
export async function getPrayerTimes(mosqueIds: readonly string[]): Promise<PrayerTimeRecord[]> {
  return (await call(configRoutes.prayerTimes, { query: { mosque_ids: mosqueIds.join(',') } })).data.prayer_times;
}

export function usePrayerTimesOf(mosqueIds: readonly string[]) {
  return useQuery({
    queryKey: [...prayerTimesQueryKey, mosqueIds],
    queryFn: () => getPrayerTimes(mosqueIds),
    enabled: mosqueIds.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** A fresh id for the Add dialog to show (not reserved: the create may still meet a 409). */
export async function getNewMosqueId(): Promise<string> {
  return (await call(mosqueRoutes.newId)).data.mosque_id;
}

/** One id per opening of the Add dialog (`nonce`), read once and dropped when the dialog closes. */
export const newMosqueIdQueryOptions = (nonce: number) =>
  queryOptions({ queryKey: newMosqueIdQueryKey(nonce), queryFn: getNewMosqueId, staleTime: Infinity, gcTime: 0 });

export function useNewMosqueId(nonce: number, enabled: boolean) {
  return useQuery({ ...newMosqueIdQueryOptions(nonce), enabled });
}

/* ---------------------------------------------------------------- mosque changes */

export async function createMosque(body: MosqueCreateRequest): Promise<Mosque> {
  return (await call(mosqueRoutes.create, { body })).data;
}

export async function updateMosque({ id, body }: { id: string; body: MosqueUpdateRequest }): Promise<Mosque> {
  return (await call(mosqueRoutes.update, { params: { mosque_id: id }, body })).data;
}

export async function deleteMosque(id: string): Promise<string> {
  return (await call(mosqueRoutes.remove, { params: { mosque_id: id } })).data.mosque_id;
}

function useConfigMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configQueryKey }),
  });
}

export const useCreateMosque = () => useConfigMutation(createMosque);
export const useUpdateMosque = () => useConfigMutation(updateMosque);
export const useDeleteMosque = () => useConfigMutation(deleteMosque);

export async function bulkMosques(body: MosqueBulkRequest): Promise<{ message: string; data: MosqueBulkResult }> {
  const { message, data } = await call(mosqueRoutes.bulk, { body });
  return { message, data };
}
export const useBulkMosques = () => useConfigMutation(bulkMosques);

/* ---------------------------------------------------------------- map links and places */

/**
 * Coordinates and a time-zone guess from one map link. No mosque id is sent, so the server only reads the
 * link and saves nothing: the coordinates are saved with the form (an edit can still be cancelled).
 */
export async function extractCoordinates(googleMapsUrl: string): Promise<ExtractionResult> {
  const answer = await call(configRoutes.extract, {
    body: { mosque_ids: [], force_refresh: true, urls: [{ mosque_id: null, google_maps_url: googleMapsUrl }] },
  });
  const [result] = answer.data.extraction_results;
  if (!result) throw new Error('No extraction result');
  return result;
}

export async function geocode(coordinates: { latitude: number; longitude: number }): Promise<GeocodeResult> {
  return (await call(configRoutes.geocode, { body: coordinates })).data;
}

/* ---------------------------------------------------------------- recording configurations */

export async function generateConfigs(body: GenerateRequest): Promise<GenerateResult> {
  return (await call(configRoutes.generate, { body })).data;
}

export function useGenerateConfigs() {
  return useMutation({ mutationFn: generateConfigs });
}
