import { useQuery } from '@tanstack/react-query';
import type { Instance } from '../../contract/instances';
import { instancesQueryOptions } from '../api/instances';
import { useLive } from './context';

/** How often the fleet is read over HTTP while the live feed, which would otherwise push it, is down. */
export const OFFLINE_FLEET_POLL_MS = 30_000;

/**
 * The instances a summary counts: the live feed's while it is connected, else GET /api/instances (read at
 * once and every 30 s), so a console whose socket is refused does not show an empty fleet. Undefined while
 * neither has answered: a count of it would read 0 before anything is known.
 */
export function useFleetInstances(): Instance[] | undefined {
  const { connected, known, instances } = useLive();
  const offline = useQuery({ ...instancesQueryOptions(), enabled: !connected, refetchInterval: OFFLINE_FLEET_POLL_MS });
  const fromFeed = known ? instances : undefined;
  return connected ? fromFeed : (offline.data ?? fromFeed);
}
