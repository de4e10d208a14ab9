import { useCallback, useEffect, useRef, useState } from 'react';
import { INACTIVITY_CHECK_MS, INACTIVITY_LIMIT_MS, INACTIVITY_WARNING_MS, sessionPhase } from '../lib/inactivity';

export const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keydown', 'scroll', 'touchstart', 'wheel'] as const;

export interface InactivityOptions {
  onExpire: () => void;
  limitMs?: number;
  warningMs?: number;
  checkMs?: number;
  /** The clock; tests may inject one (fake timers also work, they move Date.now). */
  now?: () => number;
}

export interface InactivityState {
  warning: boolean;
  /** Milliseconds left before the automatic logout (meaningful while warning). */
  remainingMs: number;
  /** Resets the timer (the warning's extend action). */
  extend: () => void;
}

/**
 * Tracks operator activity and signs out after the limit (docs/reference.md section 4, Session): checked every `checkMs`,
 * warning in the final `warningMs`. While the warning shows, only its actions count: a stray mouse move must not
 * silently dismiss it.
 */
export function useInactivity({
  onExpire,
  limitMs = INACTIVITY_LIMIT_MS,
  warningMs = INACTIVITY_WARNING_MS,
  checkMs = INACTIVITY_CHECK_MS,
  now = Date.now,
}: InactivityOptions): InactivityState {
  const lastActivity = useRef(now());
  const warningRef = useRef(false);
  const expiredRef = useRef(false);
  const onExpireRef = useRef(onExpire);
  const [warning, setWarning] = useState(false);
  const [remainingMs, setRemainingMs] = useState(limitMs);

  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    const mark = () => {
      if (!warningRef.current) lastActivity.current = now();
    };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, mark, { passive: true, capture: true });
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, mark, { capture: true });
    };
  }, [now]);

  const check = useCallback(() => {
    if (expiredRef.current) return;
    const at = now();
    const phase = sessionPhase(lastActivity.current, at, limitMs, warningMs);
    setRemainingMs(Math.max(0, limitMs - (at - lastActivity.current)));
    if (phase === 'expired') {
      expiredRef.current = true;
      warningRef.current = false;
      setWarning(false);
      onExpireRef.current();
      return;
    }
    warningRef.current = phase === 'warning';
    setWarning(phase === 'warning');
  }, [now, limitMs, warningMs]);

  useEffect(() => {
    const id = setInterval(check, checkMs);
    return () => clearInterval(id);
  }, [check, checkMs]);

  // While warning, count down every second so the dialog shows a live figure and logs out on time.
  useEffect(() => {
    if (!warning) return;
    const id = setInterval(check, 1000);
    return () => clearInterval(id);
  }, [warning, check]);

  const extend = useCallback(() => {
    lastActivity.current = now();
    expiredRef.current = false;
    warningRef.current = false;
    setWarning(false);
    setRemainingMs(limitMs);
  }, [now, limitMs]);

  return { warning, remainingMs, extend };
}
