import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A change to the address's query: a value sets a key, null removes it. */
export type ParamChanges = Record<string, string | null>;
/**
 * Changes, or a function of the address as it is at the moment of the change. A change that depends on
 * the current view (a second click on a sorted column) takes the function: React Router renders the new
 * address in a transition, so a click soon after the last one can still see the previous render's view.
 */
export type ParamUpdate = ParamChanges | ((current: URLSearchParams) => ParamChanges);

/**
 * A view's state kept in the address (`?q=…&sort=…`), so a link reproduces the view. Changes replace
 * the history entry: typing a search is not a trail of Back steps.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (update: ParamUpdate) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const changes = typeof update === 'function' ? update(current) : update;
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { params, update };
}
