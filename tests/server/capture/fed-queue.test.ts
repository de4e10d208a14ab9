import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FedQueue } from '../../../recorder/fed-queue';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fed-queue-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A consumer that takes what it is given only when the test lets it. */
function slowConsumer() {
  const taken: number[] = [];
  const waiting: (() => void)[] = [];
  return {
    taken,
    give: (bytes: Uint8Array) =>
      new Promise<boolean>((resolve) =>
        waiting.push(() => {
          taken.push(...bytes);
          resolve(true);
        }),
      ),
    /** Lets every hand-off asked for so far (and those it leads to) through. */
    async release(): Promise<void> {
      while (waiting.length) {
        waiting.shift()?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

describe('the queue between the segment reader and ffmpeg', () => {
  it('takes segments at once while ffmpeg is behind, keeps them on disk, and hands them on in order', async () => {
    const file = path.join(work, 'run-0001.queue');
    const consumer = slowConsumer();
    const queue = new FedQueue(file, consumer.give);
    const segments = Array.from({ length: 5 }, (_, i) => new Uint8Array(3000).fill(i + 1));
    for (const segment of segments) queue.push(segment, 2);
    // The first is with ffmpeg; the other four wait on disk, not in memory: 8 s of media behind.
    expect(queue.backlogBytes).toBe(4 * 3000);
    expect(queue.backlogSeconds).toBe(8);
    expect(fs.statSync(file).size).toBe(4 * 3000);
    const drained = queue.drained();
    await consumer.release();
    await drained;
    expect(queue.backlogSeconds).toBe(0);
    expect(consumer.taken).toEqual(segments.flatMap((s) => [...s]));
    expect(fs.existsSync(file)).toBe(false);
  });

  it('counts a queued segment behind until ffmpeg has taken it, so the backlog falls as ffmpeg works', async () => {
    const file = path.join(work, 'run-0004.queue');
    const behindAtEachHandOff: number[] = [];
    let letFirstThrough = () => {};
    const firstHeld = new Promise<void>((resolve) => (letFirstThrough = resolve));
    const queue: FedQueue = new FedQueue(file, async () => {
      behindAtEachHandOff.push(queue.backlogSeconds);
      if (behindAtEachHandOff.length === 1) await firstHeld;
      return true;
    });
    // Small segments: many fit in one read of the file, as a low-bitrate stream's do.
    for (let i = 0; i < 5; i++) queue.push(new Uint8Array(100).fill(i + 1), 2);
    expect(queue.backlogSeconds).toBe(8);
    letFirstThrough();
    await queue.drained();
    // The first went straight to ffmpeg; then one segment per hand-off, counted while ffmpeg takes it.
    expect(behindAtEachHandOff).toEqual([0, 8, 6, 4, 2]);
    expect(queue.backlogSeconds).toBe(0);
  });

  it('goes straight to ffmpeg when it keeps up, and empties its file once it caught up', async () => {
    const file = path.join(work, 'run-0002.queue');
    const consumer = slowConsumer();
    const queue = new FedQueue(file, consumer.give);
    queue.push(new Uint8Array([1]), 2);
    queue.push(new Uint8Array([2]), 2);
    await consumer.release();
    expect(queue.backlogBytes).toBe(0);
    expect(fs.statSync(file).size).toBe(0);
    queue.push(new Uint8Array([3]), 2);
    expect(queue.backlogBytes).toBe(0);
    const drained = queue.drained();
    await consumer.release();
    await drained;
    expect(consumer.taken).toEqual([1, 2, 3]);
  });

  it('holds its backlog in memory when the disk will not take it, and hands it all on in order', async () => {
    const consumer = slowConsumer();
    const queue = new FedQueue(path.join(work, 'no-such-folder', 'run-0004.queue'), consumer.give);
    for (let i = 1; i <= 4; i++) queue.push(new Uint8Array([i]), 2);
    expect(queue.backlogSeconds).toBe(6);
    const drained = queue.drained();
    await consumer.release();
    await drained;
    expect(consumer.taken).toEqual([1, 2, 3, 4]);
  });

  it('says when ffmpeg went away, and takes nothing more', async () => {
    const queue = new FedQueue(path.join(work, 'run-0003.queue'), () => Promise.resolve(false));
    queue.push(new Uint8Array([1]), 2);
    await queue.drained();
    expect(queue.broken).toBe(true);
    queue.push(new Uint8Array([2]), 2);
    expect(queue.backlogBytes).toBe(0);
  });
});
