import { afterAll } from 'vitest';
import { removeTemporaryDirs } from './server';

// Registered before each file's own hooks, so it runs after them (after-hooks run in reverse): the
// file's servers are stopped by then. A server started without a data directory got one of these.
afterAll(removeTemporaryDirs);
