import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { scaled } from '../../testkit/time-scale';
import { takeContractViolations } from '../../src/mocks/endpoint';
import { resetStore } from '../../src/mocks/store';
import { server } from './support/server';

// A busy machine can take a few seconds to show a page (renderApp loads its route's modules first: support/render.tsx).
configure({ asyncUtilTimeout: scaled(5000) });

// happy-dom's Element.toString() serialises the whole subtree (outerHTML), where a browser answers
// "[object HTMLDivElement]". Popper (under MUI's Autocomplete and Tooltip) calls it many times on every
// placement to tell a window from an element: a tenth of the component tests' CPU went to it.
Element.prototype.toString = function toString(this: Element) {
  return `[object ${this.constructor.name}]`;
};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  server.resetHandlers();
  resetStore();
  localStorage.clear();
  // A mock that answered outside its endpoint's declaration (status or response schema) fails the test.
  expect(takeContractViolations(), 'mock answers that break contract/routes').toEqual([]);
});

afterAll(() => server.close());
