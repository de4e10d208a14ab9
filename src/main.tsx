// The Roboto weights the console shows (400 text, 500 buttons and titles, 700 for the 600 headings and
// bold); MUI's light 300 is in no page, and each weight's faces add to the stylesheet every page waits for.
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getToken } from './api/token';
import App from './app/App';
import { preloadRoute } from './app/routes';
import { holdSessionCheck, startSessionCheck } from './auth/session-check';

/** `npm run dev:mock` (vite --mode mock) answers every call from the in-browser mocks instead of a server. */
async function enableMocking(): Promise<void> {
  if (import.meta.env.MODE !== 'mock') return;
  const { worker } = await import('./mocks/browser');
  // A call the mocks do not answer is a gap in the mocks: say so in the console (component tests fail on it).
  await worker.start({ onUnhandledRequest: 'warn' });
}

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

void enableMocking().then(() => {
  // A stored session will most likely open the page in the address: check the session first thing, and
  // fetch the page's code and first data meanwhile. The console shows the page once its code is there,
  // not before (the page would suspend).
  if (getToken()) {
    void startSessionCheck();
    holdSessionCheck(preloadRoute(window.location));
  }
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
