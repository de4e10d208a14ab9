import { setupWorker } from 'msw/browser';
import { handlers } from './handlers';

/** The service worker behind `npm run dev:mock`. */
export const worker = setupWorker(...handlers);
