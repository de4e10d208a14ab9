import { describe, expect, it } from 'vitest';
import { framesOfBlocks } from '../../../testkit/numbered-audio';
import { FRAME_CODE } from '../../../testkit/numbered-stream';

/** Block readings (10 ms each) of whole seconds, in order. */
const secondsOf = (...seconds: number[]) => seconds.flatMap((second) => Array<number>(100).fill(second));
const secondOfFrame = (frame: number) => Math.floor(frame / FRAME_CODE.fps);

describe('reading the numbered radio back', () => {
  it('drops a lone misread block at a drop, so what follows is not read as reordered', () => {
    // Seconds 94-95, a drop, then 128-129; across the join one block read low from one side and high
    // from the other: second 159.
    const frames = framesOfBlocks([...secondsOf(94, 95), null, 159, null, ...secondsOf(128, 129)]);
    expect(new Set(frames.map(secondOfFrame))).toEqual(new Set([94, 95, 128, 129]));
    expect(frames).toEqual([...frames].sort((a, b) => a - b));
  });

  it('keeps a short stretch of a second that joins its neighbour, at its place in the second', () => {
    // Two blocks (20 ms) of second 96 after 95, then a drop to 128.
    const frames = framesOfBlocks([...secondsOf(94, 95), 96, 96, null, null, null, null, ...secondsOf(128)]);
    expect(frames.filter((frame) => secondOfFrame(frame) === 96)).toEqual([96 * FRAME_CODE.fps]);
  });
});
