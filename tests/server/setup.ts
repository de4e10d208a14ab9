import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { setPasswordCost } from '../../server/lib/passwords';
import { shareMotoPerWorker } from '../../testkit/capture';

// Argon2id at the real cost takes ~80 ms a hash on this machine and the suite signs in thousands of
// times; the tests prove the rules around passwords, not the cost (tests/server/auth/password-cost.test.ts
// proves that a server hashes at OWASP's cost).
setPasswordCost({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

// The built server's define (scripts/build-server.ts: where its built recorder is), given as a global:
// the server code run here starts and publishes the recorder this run built (tests/server/global-setup.ts).
(globalThis as { __RECORDER_BUNDLE__?: string }).__RECORDER_BUNDLE__ = pathToFileURL(inject('builtRecorder')).href;

// The files of a worker run one after another: each takes the worker's moto, emptied (testkit/capture.ts).
shareMotoPerWorker();
