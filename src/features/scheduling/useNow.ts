import { useEffect, useState } from 'react';

/** How often the timing icons are re-derived between refreshes (a recording turns "within the hour" on its own). */
export const NOW_TICK_MS = 15_000;

/** The current time, renewed every `tickMs`. */
export function useNow(tickMs = NOW_TICK_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
