/**
 * docs/reference.md section 9: tooltips open after 100 ms, after 700 ms of touch, and close 1500 ms after a touch ends
 * (MUI's enterDelay, enterTouchDelay and leaveTouchDelay; a mouse leaving closes at once, as MUI does by default).
 */
export const TOOLTIP_DELAYS = { enterDelay: 100, enterTouchDelay: 700, leaveTouchDelay: 1500 } as const;
