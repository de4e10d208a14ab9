import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setMockLogs } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import { isSegmentOpening } from '../../../../src/lib/log-lines';
import { openInstances, openRowMenu, seedFleet } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const OPENING = "[hls @ 0x55d1c0a3c2c0] Opening 'http://127.0.0.1:8000/demo/segment42.ts' for reading";
const WRITING = "[segment @ 0x55d1c0] Opening '/data/recordings/x/part-0003.ts' for writing";
const PROGRESS = 'frame=  750 fps= 25 q=-1.0 size=    2048kB time=00:00:30.00 bitrate= 559.2kbits/s speed=1.0x';

describe('Logs viewer keeps progress in sight', { timeout: scaled(30_000) }, () => {
  it('knows the segment opening lines from the rest', () => {
    expect(isSegmentOpening(OPENING)).toBe(true);
    expect(isSegmentOpening(WRITING)).toBe(true);
    expect(isSegmentOpening(PROGRESS)).toBe(false);
    expect(isSegmentOpening("Input #0, hls, from 'http://127.0.0.1:8000/demo/stream.m3u8':")).toBe(false);
  });

  it('hides the "Opening … for reading" lines, says how many, and shows them on request', async () => {
    store.liveAvailable = false;
    const fleet = seedFleet();
    setMockLogs(fleet.running.id, [OPENING, OPENING.replace('42', '43'), PROGRESS, WRITING]);
    const { user } = await openInstances();
    const menu = await openRowMenu(user, fleet.running);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    const dialog = within(await screen.findByRole('dialog', { name: /^Logs:/ }));
    const log = within(dialog.getByRole('log'));
    expect(await log.findByText(/^frame=\s+750 fps/)).toBeInTheDocument();
    expect(log.queryByText(OPENING)).not.toBeInTheDocument();
    expect(dialog.getByText(/3 segment "Opening" lines hidden/)).toBeInTheDocument();
    await user.click(dialog.getByRole('switch', { name: 'Show every line' }));
    expect(log.getByText(OPENING)).toBeInTheDocument();
    expect(log.getAllByText(/Opening '/)).toHaveLength(3);
  });
});
