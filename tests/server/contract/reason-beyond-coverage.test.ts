import { describe, expect, it } from 'vitest';
import { reasonBeyondCoverage } from '../../../contract/recordings';

/** An alarm or outcome that states the coverage itself keeps only what the recorder's reason adds. */
describe('reasonBeyondCoverage', () => {
  it("drops the recorder's own coverage, keeping what follows", () => {
    expect(reasonBeyondCoverage('Recorded 27.5 s of 300 s: Stream not live yet (HTTP 404) for 30 s')).toBe(
      'Stream not live yet (HTTP 404) for 30 s',
    );
  });

  it('is null when nothing follows, or there is no reason', () => {
    expect(reasonBeyondCoverage('Recorded 96 s of 600 s')).toBeNull();
    expect(reasonBeyondCoverage(null)).toBeNull();
  });

  it('keeps a reason that does not open with the coverage', () => {
    expect(reasonBeyondCoverage('Stopped by admin')).toBe('Stopped by admin');
  });
});
