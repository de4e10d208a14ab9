import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDLE_MS, DemoStream } from '../../../server/capture/demo-stream';
import { ManualClock } from '../../../testkit/manual-clock';
import { waitFor } from '../../../testkit/wait';
import { scaled } from '../../../testkit/time-scale';

describe('the demo stream', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function demoStream() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-stream-'));
    const clock = new ManualClock('2026-11-27T09:00:00Z');
    const demo = new DemoStream(dir, undefined, pino({ level: 'silent' }), clock);
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => demo.stop());
    return { demo, clock };
  }

  it('transcodes nothing until first asked for, then serves a live playlist', { timeout: scaled(30_000) }, async () => {
    const { demo } = demoStream();
    expect(demo.running).toBe(false);
    // The first request finds no playlist yet (the player or recorder asks again) but starts the generator.
    expect(demo.file('stream.m3u8')).toBeUndefined();
    expect(demo.running).toBe(true);
    const playlist = await waitFor(() => demo.file('stream.m3u8'), 'the demo playlist', 20_000);
    expect(fs.readFileSync(playlist.path, 'utf8')).toContain('#EXTM3U');
    // A name that is not the stream's is no use of it.
    expect(demo.file('secret.key')).toBeUndefined();
  });

  it('stops 5 minutes after its last use, and starts again on the next', { timeout: scaled(30_000) }, async () => {
    const { demo, clock } = demoStream();
    demo.use();
    expect(demo.running).toBe(true);
    clock.advance(DEMO_IDLE_MS - 60_000);
    demo.file('stream.m3u8'); // a recorder reading it keeps it alive
    clock.advance(DEMO_IDLE_MS - 60_000);
    expect(demo.running).toBe(true);
    clock.advance(60_000);
    await waitFor(() => !demo.running, 'the idle generator to stop', 10_000);

    demo.use();
    expect(demo.running).toBe(true);
    // The stopped generator's exit is not taken for a crash of the new one: it runs until its playlist is written.
    await waitFor(() => demo.file('stream.m3u8'), "the new generator's playlist", 20_000);
    expect(demo.running).toBe(true);
  });
});
