import { onTestFinished } from 'vitest';

/** happy-dom's window API: its CSS media queries (and MUI's breakpoints) follow this viewport. */
interface HappyDomWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}

/** happy-dom's default window size, which every other test renders at. */
const DEFAULT_VIEWPORT = { width: 1024, height: 768 };

function setViewport(viewport: { width: number; height: number }): void {
  (window as unknown as HappyDomWindow).happyDOM.setViewport(viewport);
}

/** Renders the rest of the calling test at a phone width (below MUI's `md`); the default size comes back after it. */
export function narrowViewport(width = 600): void {
  setViewport({ width, height: 900 });
  onTestFinished(() => setViewport(DEFAULT_VIEWPORT));
}
