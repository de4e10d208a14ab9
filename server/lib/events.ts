import type { FastifyBaseLogger } from 'fastify';

/**
 * What one server module tells the others without knowing who listens: the only way a module hears
 * of another's changes after both are built (docs/architecture.md, "Server modules").
 */
export interface ServerEvents {
  /** Another server took this one's lease over (it was silent past DEAD_AFTER_MS): it stops its claims and stops. */
  lease_lost: { by: string; at: string };
  /** A mosque was created, updated or deleted (the scheduler re-plans it; consoles refresh). */
  mosque_changed: { type: 'created' | 'updated' | 'deleted'; mosque_id: string };
  /** An account was created or changed (consoles refresh their user list). */
  user_changed: { type: 'created' | 'updated'; user_id: number };
  /** Sessions were revoked (sign-out, password change, deactivation): their live sockets close at once. */
  sessions_revoked: { sessionIds: string[] };
  /** The outcome of an ended recording changed (a late result, the store's join): its job is judged again. */
  recording_revised: { instanceId: string };
}

type Listener<T> = (payload: T) => void;

/** One typed bus per app: `on` subscribes (and returns the unsubscribe), `emit` tells every listener in turn. */
export class EventBus<Events extends object = ServerEvents> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** A listener that throws is logged; the emitter's work and the other listeners go on. */
  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.log.error({ err: error, event }, 'an event listener failed');
      }
    }
  }
}
