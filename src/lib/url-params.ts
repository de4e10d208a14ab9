import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A change to the address's query: a value sets a key, null removes it. */
export type ParamChanges = Record<string, string | null>;
/** Changes, or a function of the address as it is at the moment of the change (a second click on a sorted column). */
export type ParamUpdate = ParamChanges | ((current: URLSearchParams) => ParamChanges);

/**
 * A view's state kept in the address (`?q=…&sort=…`), so a link reproduces the view. Changes replace
 * the history entry: typing a search is not a trail of Back steps.
 *
 * A change is made to the address as this hook last set it, not as the last render saw it: React
 * Router renders a new address in a transition, and its own functional update reads the rendered
 * one, so a second click soon after the first (a busy machine, a quick operator) would undo it.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  // The address changed under the view (Back, a link, a render of this hook's own change).
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = useCallback(
    (update: ParamUpdate) => {
      const current = latest.current;
      const next = new URLSearchParams(current);
      const changes = typeof update === 'function' ? update(current) : update;
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  return { params, update };
}

/**
 * A second list on one page keeps its view under its own names (`?prayer.q=…&prayer.page=2`), so it and the
 * page's other list never read each other's search or page. Same shape as useUrlParams: the list reads
 * and writes `q`, `sort`, `page`…, and the scope is added and taken off here.
 */
export function useScopedUrlParams(scope: string) {
  const { params, update } = useUrlParams();
  const prefix = `${scope}.`;
  const unscoped = useCallback(
    (all: URLSearchParams) => {
      const own = new URLSearchParams();
      for (const [key, value] of all) if (key.startsWith(prefix)) own.set(key.slice(prefix.length), value);
      return own;
    },
    [prefix],
  );
  const scopedParams = useMemo(() => unscoped(params), [unscoped, params]);
  const scopedUpdate = useCallback(
    (change: ParamUpdate) =>
      update((current) => {
        const changes = typeof change === 'function' ? change(unscoped(current)) : change;
        return Object.fromEntries(Object.entries(changes).map(([key, value]) => [prefix + key, value]));
      }),
    [update, unscoped, prefix],
  );
  return { params: scopedParams, update: scopedUpdate };
}
