import { createContext, useContext } from 'react';
import type { Instance, Recording } from '../../contract/instances';
import type { ClientMessage, ServerMessageOf, ServerMessageType, SystemStatus } from '../../contract/live';

export type LiveHandler<T extends ServerMessageType> = (message: ServerMessageOf<T>) => void;

export interface LiveContextValue {
  connected: boolean;
  /** The reconnect back-off ran out: the console shows Reconnect. */
  gaveUp: boolean;
  /** Tries again now with a fresh round of attempts (the operator's Reconnect). */
  reconnect: () => void;
  /** The feed has sent its initial data: until then `instances` and `recordings` are empty because unknown, not because there are none. */
  known: boolean;
  instances: Instance[];
  recordings: Recording[];
  /** Latest system status from initial_data / system_status_update / system_health; null until known and while disconnected. */
  systemStatus: SystemStatus | null;
  /** Calls `handler` for every message of `type`; returns the unsubscribe function. */
  subscribe: <T extends ServerMessageType>(type: T, handler: LiveHandler<T>) => () => void;
  /** request_logs / subscribe_logs / unsubscribe_logs; false (nothing sent) when not connected. */
  send: (
    message: Extract<ClientMessage, { action: 'request_logs' | 'subscribe_logs' | 'unsubscribe_logs' }>,
  ) => boolean;
}

export const LiveContext = createContext<LiveContextValue | null>(null);

export function useLive(): LiveContextValue {
  const value = useContext(LiveContext);
  if (!value) throw new Error('useLive must be used inside <LiveProvider>');
  return value;
}
