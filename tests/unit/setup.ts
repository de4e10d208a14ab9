import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { scaled } from '../../testkit/time-scale';
import { NOTIFICATION_DURATIONS, SPEC_NOTIFICATION_DURATIONS, type Severity } from '../../src/lib/notifications';
import { noteServerAway } from '../../src/app/recoverable-lazy';
import { takeContractViolations } from '../../src/mocks/endpoint';
import { resetStore } from '../../src/mocks/store';
import { installClassRuleIndex } from './support/class-rule-index';
import { installClassSelectorPrecheck } from './support/class-selector-precheck';
import { server } from './support/server';
import { speedyEmotion } from './support/speedy-emotion';

// A busy machine can take a few seconds to show a page (renderApp loads its route's modules first: support/render.tsx).
configure({ asyncUtilTimeout: scaled(5000) });

// Notices close themselves after real seconds (4-8 s); on a saturated machine one click can outlast that,
// and a test then looks for a notice already gone. They stay up for the scaled time here.
for (const severity of Object.keys(SPEC_NOTIFICATION_DURATIONS) as Severity[])
  NOTIFICATION_DURATIONS[severity] = scaled(SPEC_NOTIFICATION_DURATIONS[severity]);

// As in a browser, String(element) names its class. happy-dom serialises the whole subtree instead, and
// Popper (every menu, select and tooltip) calls it on each placement: 11% of the component tests' CPU in
// a profile; 5% less CPU for the whole project, in two timed runs of each (193 and 205 s -> 187 and 189 s).
Element.prototype.toString = function toString(this: Element) {
  return `[object ${this.constructor.name}]`;
};

// happy-dom's style matching, without parsing selectors whose classes an element lacks: see the file.
installClassSelectorPrecheck();
// ... and without walking the rules whose classes no element in hand has: see the file.
installClassRuleIndex();

// Emotion's rules in one sheet, as in production, not one <style> element each: see the file.
speedyEmotion();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  // A live feed that lost its (mock) server in one test must not hold the next test's pages back.
  noteServerAway(false);
  vi.useRealTimers();
  server.resetHandlers();
  resetStore();
  localStorage.clear();
  // A mock that answered outside its endpoint's declaration (status or response schema) fails the test.
  expect(takeContractViolations(), 'mock answers that break contract/routes').toEqual([]);
});

afterAll(() => server.close());
