/**
 * SPEC.md section 9: tooltips open after 100 ms, after 700 ms of touch, and close 1500 ms after a touch ends.
 * (The same values as the Config Generator's; pages do not import each other.)
 */
export const TOOLTIP_DELAYS = { enterDelay: 100, enterTouchDelay: 700, leaveTouchDelay: 1500 } as const;
