import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Instance, Recording } from '../../contract/instances';
import type { ServerMessage, ServerMessageType, SystemStatus } from '../../contract/live';
import { getToken } from '../api/token';
import { defaultLiveUrl, LiveConnection, type SocketFactory } from './connection';
import { LiveContext, type LiveContextValue, type LiveHandler } from './context';

interface LiveProviderProps {
  children: ReactNode;
  /** Tests inject a fake socket; the browser's WebSocket otherwise. */
  createSocket?: SocketFactory;
  url?: string;
}

/** The one live connection of a signed-in console, and the latest fleet state it carried. */
export function LiveProvider({ children, createSocket, url }: LiveProviderProps) {
  const [connected, setConnected] = useState(false);
  const [instances, setInstances] = useState<Instance[]>([]);
  const [recordings, setRecordings] = useState<Recording[]>([]);
  const [systemStatus, setSystemStatus] = useState<SystemStatus | null>(null);
  const handlers = useRef(new Map<ServerMessageType, Set<(message: ServerMessage) => void>>());
  const connection = useRef<LiveConnection | null>(null);

  const dispatch = useCallback((message: ServerMessage) => {
    switch (message.type) {
      case 'initial_data':
        setInstances(message.data.instances);
        setRecordings(message.data.recordings);
        setSystemStatus(message.data.system_status);
        break;
      case 'instance_status_update':
        setInstances(message.data);
        break;
      case 'recordings_update':
        setRecordings(message.data);
        break;
      case 'system_status_update':
        setSystemStatus(message.data.status);
        break;
      case 'system_health':
        setSystemStatus(message.data.overall_health);
        break;
      default:
        break;
    }
    for (const handler of handlers.current.get(message.type) ?? []) handler(message);
  }, []);

  useEffect(() => {
    const live = new LiveConnection({
      url: url ?? defaultLiveUrl(),
      getToken,
      createSocket,
      onConnectedChange: setConnected,
      onMessage: dispatch,
      log: console,
    });
    connection.current = live;
    live.start();
    return () => {
      live.stop();
      connection.current = null;
    };
  }, [url, createSocket, dispatch]);

  const subscribe = useCallback(<T extends ServerMessageType>(type: T, handler: LiveHandler<T>) => {
    const set = handlers.current.get(type) ?? new Set();
    const wrapped = handler as unknown as (message: ServerMessage) => void;
    set.add(wrapped);
    handlers.current.set(type, set);
    return () => {
      set.delete(wrapped);
    };
  }, []);

  const send = useCallback<LiveContextValue['send']>((message) => connection.current?.send(message) ?? false, []);

  const value = useMemo<LiveContextValue>(
    () => ({ connected, instances, recordings, systemStatus, subscribe, send }),
    [connected, instances, recordings, systemStatus, subscribe, send],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}
