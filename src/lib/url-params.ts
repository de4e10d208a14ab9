import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A change to the address's query: a value sets a key, null removes it. */
export type ParamChanges = Record<string, string | null>;

/**
 * A view's state kept in the address (`?q=…&sort=…`), so a link reproduces the view. Changes replace
 * the history entry: typing a search is not a trail of Back steps.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: ParamChanges) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
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
