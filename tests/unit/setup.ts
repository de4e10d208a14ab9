import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetStore } from '../../src/mocks/store';
import { server } from './support/server';

// Lazy route chunks are transformed on first use, which can take a few seconds on a busy machine.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  server.resetHandlers();
  resetStore();
  localStorage.clear();
});

afterAll(() => server.close());
