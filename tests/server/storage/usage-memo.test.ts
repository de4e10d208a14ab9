import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testkit/manual-clock';
import { LocalRecordingStore } from '../../../server/storage/local-store';
import { USAGE_MAX_AGE_MS, UsageMemo } from '../../../server/storage/usage-memo';

/** The storage card's figure on a real local store: measured at most every 10 minutes and after a delete. */
describe('the store usage the console polls', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-memo-'));
  const store = new LocalRecordingStore(root);
  const clock = new ManualClock('2026-11-27T09:00:00Z');
  const memo = new UsageMemo(store, clock);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps a measurement for 10 minutes, says when it was taken, and measures again after a delete', async () => {
    await store.putText('noor/2026-11-27/rec-1/metadata.json', 'x'.repeat(100));
    const first = await memo.read();
    expect(first).toMatchObject({ usedBytes: 100, measuredAt: '2026-11-27T09:00:00.000Z' });
    expect(first.freeBytes).toBeGreaterThan(0);

    // A poll a minute later, with a new object in the store: the same measurement.
    await store.putText('noor/2026-11-27/rec-2/metadata.json', 'y'.repeat(50));
    clock.advance(60_000);
    expect(await memo.read()).toMatchObject({ usedBytes: 100, measuredAt: '2026-11-27T09:00:00.000Z' });

    clock.advance(USAGE_MAX_AGE_MS);
    expect(await memo.read()).toMatchObject({ usedBytes: 150, measuredAt: '2026-11-27T09:11:00.000Z' });

    await store.deletePrefix('noor/2026-11-27/rec-1/');
    clock.advance(1000);
    expect((await memo.read()).usedBytes).toBe(150);
    memo.invalidate();
    expect(await memo.read()).toMatchObject({ usedBytes: 50, measuredAt: '2026-11-27T09:11:01.000Z' });
  });

  it('shares one measurement between concurrent readers and keeps no failed one', async () => {
    let measured = 0;
    let fail = true;
    /** The real store, whose measurement fails until told otherwise (a bucket out of reach). */
    class FlakyStore extends LocalRecordingStore {
      override async usage() {
        measured++;
        if (fail) throw new Error('store unreachable');
        return super.usage();
      }
    }
    const flaky = new UsageMemo(new FlakyStore(root), clock);
    await expect(Promise.all([flaky.read(), flaky.read()])).rejects.toThrow('store unreachable');
    expect(measured).toBe(1);
    fail = false;
    expect((await flaky.read()).usedBytes).toBe(50);
    expect(measured).toBe(2);
  });
});
