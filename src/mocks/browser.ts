import { setupWorker } from 'msw/browser';
import { seedDemoWorld } from './demo-world';
import { handlers } from './handlers';

// `npm run dev:mock` opens on a populated fleet: every page has something to show.
seedDemoWorld();

/** The service worker behind `npm run dev:mock`. */
export const worker = setupWorker(...handlers);
