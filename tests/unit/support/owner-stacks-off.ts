import React from 'react';

/*
 * React's development build records an owner stack on each element it creates: an Error with ten frames
 * of the stack, up to 10,000 elements a second. The component tests create millions of elements, and
 * those Errors were a tenth of their CPU in a profile (react's own code: 5.9 s -> 1.6 s of 41 s on six
 * of the largest files). Here every element gets the shared "unknown owner" stack React falls back to
 * past its limit, as if the limit were always reached. Warnings still fire; what they lose is the line
 * of the component that created the element (leave this file out of the unit project's setupFiles in
 * vite.config.ts to see them while debugging a warning).
 *
 * The counter sits in React's internals (a name React warns about): if a release moves it, this throws
 * at setup, and owner-stacks-off.test.tsx fails when elements get their own stack again.
 */
const internals = (React as unknown as Record<string, object | undefined>)
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (!internals || !('recentlyCreatedOwnerStacks' in internals))
  throw new Error("React's owner-stack counter moved: see tests/unit/support/owner-stacks-off.ts");
// Reads say the limit is reached; React's increments and its once-a-second reset to 0 change nothing.
// Configurable: the setup file runs again for each test file a worker takes (isolate: false).
Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', {
  get: () => Number.POSITIVE_INFINITY,
  set: () => undefined,
  configurable: true,
});
