import { setPasswordCost } from '../../server/lib/passwords';

// Argon2id at the real cost takes ~80 ms a hash on this machine and the suite signs in thousands of
// times; the tests prove the rules around passwords, not the cost (tests/server/auth/password-cost.test.ts
// proves that a server hashes at OWASP's cost).
setPasswordCost({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
