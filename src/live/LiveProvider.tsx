import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Instance, Recording } from '../../contract/instances';
import type { ServerMessage, ServerMessageType, SystemStatus } from '../../contract/live';
import { getToken } from '../api/token';
import { noteServerAway } from '../app/recoverable-lazy';
import { defaultLiveUrl, LiveConnection, type SocketFactory } from './connection';
import { LiveContext, type LiveContextValue, type LiveHandler } from './context';

interface LiveProviderProps {
  children: ReactNode;
  /** Tests inject a fake socket; the browser's WebSocket otherwise. */
  createSocket?: SocketFactory;
  url?: string;
  /** Called when the live feed comes back after an interruption, or the server could not replay all it missed: what may have gone stale is asked again. */
  onReconnected?: () => void;
}

/** The one live connection of a signed-in console, and the latest fleet state it carried. */
export function LiveProvider({ children, createSocket, url, onReconnected }: LiveProviderProps) {
  const [connected, setConnected] = useState(false);
  const [gaveUp, setGaveUp] = useState(false);
  const reconnected = useRef(onReconnected);
  useEffect(() => {
    reconnected.current = onReconnected;
  }, [onReconnected]);
  const [instances, setInstances] = useState<Instance[]>([]);
  const [recordings, setRecordings] = useState<Recording[]>([]);
  const [known, setKnown] = useState(false);
  const [systemStatus, setSystemStatus] = useState<SystemStatus | null>(null);
  const handlers = useRef(new Map<ServerMessageType, Set<(message: ServerMessage) => void>>());
  const connection = useRef<LiveConnection | null>(null);

  const dispatch = useCallback((message: ServerMessage) => {
    switch (message.type) {
      case 'initial_data':
        setInstances(message.data.instances);
        setRecordings(message.data.recordings);
        setSystemStatus(message.data.system_status);
        setKnown(true);
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
      onConnectedChange: (isConnected) => {
        // Page chunks are not asked for while the server is away (src/app/recoverable-lazy.tsx).
        noteServerAway(!isConnected);
        setConnected(isConnected);
      },
      onGaveUpChange: setGaveUp,
      onReconnected: () => reconnected.current?.(),
      onRefetch: () => reconnected.current?.(),
      onMessage: dispatch,
      log: console,
    });
    connection.current = live;
    live.start();
    // Signs that the network may be back: try at once instead of waiting out the back-off (or for good).
    // An HTTP answer is not one: it shows the server is up, not that its socket accepts us (docs/reference.md section 7:
    // 1 s doubling to 30 s, 10 attempts), and frequent answers used to keep the attempts from ever running out.
    const nudge = () => live.nudge();
    const onVisible = () => {
      if (document.visibilityState === 'visible') nudge();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', nudge);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', nudge);
      live.stop();
      // Closed on purpose (signed out, unmounted): that says nothing about the server.
      noteServerAway(false);
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
  const reconnect = useCallback(() => connection.current?.reconnect(), []);

  // A status heard before the connection dropped may no longer be true: say nothing rather than "operational".
  const currentStatus = connected ? systemStatus : null;
  const value = useMemo<LiveContextValue>(
    () => ({
      connected,
      gaveUp,
      reconnect,
      known,
      instances,
      recordings,
      systemStatus: currentStatus,
      subscribe,
      send,
    }),
    [connected, gaveUp, reconnect, known, instances, recordings, currentStatus, subscribe, send],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}
