import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentSummary, ContentWindow } from '../../recorder/protocol';
import { keepContent } from '../../recorder/recorder-handover';
import type { RecorderConfig } from '../../recorder/recorder-state';
import { contentProgramme } from '../../testkit/content-programmes';
import { integratedLufs } from '../../testkit/loudness';
import { seedMosques } from '../../testkit/seed-mosques';
import { scaled } from '../../testkit/time-scale';
import {
  launchBrowser,
  SCREEN_SIZES,
  screenshotOnceDialogsShown,
  seedRecordingsLibrary,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';

/*
 * A recording's content in Chromium against the built server: the library filtered to the recordings
 * with a content warning, and the warned recording's loudness strip, integrated loudness and longest
 * silence drawn under its player, at 1440 and 820 px. The content file is the one the recorder keeps
 * beside the media (written by its own keepContent): 30 minutes of a speaker, muted for 3 minutes.
 * Its media is a minute of the test stream's tone, quiet for its first 20 s, whose audio alone the
 * player's Download audio saves: AAC, -16 LUFS.
 */

const MOSQUES = 3;
const WARNED = 'rec-lib00001w0';
const WINDOW_START = Date.parse('2026-10-02T10:01:00.000Z');
/** Muted from 12 to 15 minutes into the window. */
const MUTED = { from: 72, to: 90 };

function windows(): ContentWindow[] {
  return Array.from({ length: 180 }, (_, i) => {
    const silent = i >= MUTED.from && i < MUTED.to;
    const loudness = silent ? null : Math.round((-21 + 5 * Math.sin(i / 6)) * 10) / 10;
    return {
      start: new Date(WINDOW_START + i * 10_000).toISOString(),
      measured: 10,
      loudness,
      blocks: silent ? 0 : 100,
      momentaryMax: loudness === null ? -92 : loudness + 7,
      silent: silent ? 10 : 0,
      frozen: 0,
      black: 0,
      video: true,
    };
  });
}

const SUMMARY: ContentSummary = {
  measuredSeconds: 1800,
  integratedLufs: -21.3,
  peakDbfs: -1.8,
  longestSilenceSeconds: 180,
  silentSeconds: 180,
  frozenSeconds: 0,
  blackSeconds: 0,
  conditions: [],
};

/** The warned recording: 30 minutes, a content alarm raised and resolved, its content file beside its media. */
async function seedWarned(dataDir: string): Promise<void> {
  const db = new Database(path.join(dataDir, 'capture.db'));
  let file: string;
  try {
    db.prepare(`update recordings set duration_seconds = 1800 where id = ?`).run(WARNED);
    db.prepare(
      `insert into alarms (id, cause_key, kind, severity, mosque_id, mosque_name, job_id, instance_id, message, raised_at, resolved_at, updated_at)
       values ('alm-0000000000000001', ?, 'audio_silent', 'warning', null, null, null, ?, 'Mosque 1: audio silent for 2 minutes', ?, ?, ?)`,
    ).run(
      `content:audio_silent:${WARNED}`,
      WARNED.replace('rec-', 'cap-'),
      '2026-10-02T10:15:00.000Z',
      '2026-10-02T10:16:00.000Z',
      '2026-10-02T10:16:00.000Z',
    );
    file = (db.prepare(`select file_path from recordings where id = ?`).get(WARNED) as { file_path: string }).file_path;
    const programme = contentProgramme({ fault: 'silent', from: 0, to: 20, seconds: 60 });
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', programme, '-c', 'copy', file]);
    db.prepare(`update recordings set bytes = ? where id = ?`).run(fs.statSync(file).size, WARNED);
  } finally {
    db.close();
  }
  const windowsFile = path.join(dataDir, 'content.jsonl');
  fs.writeFileSync(
    windowsFile,
    windows()
      .map((w) => `${JSON.stringify(w)}\n`)
      .join(''),
  );
  const error = await keepContent(null, dataDir, { outputPath: file } as RecorderConfig, SUMMARY, windowsFile);
  if (error) throw new Error(error);
}

describe("A recording's loudness strip and the content warnings filter", () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-content-'));
    await seedMosques(dataDir, MOSQUES, { withPlaces: true });
    seedRecordingsLibrary(dataDir, MOSQUES);
    await seedWarned(dataDir);
    server = await startServer({ dataDir });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const size of SCREEN_SIZES) {
    it(`filters to content warnings and draws the recording's strip at ${size.width}x${size.height}`, async () => {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await signInOnNextLoad(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/recordings`);
      await page.getByText(`1–${MOSQUES * 2} of ${MOSQUES * 2}`, { exact: true }).waitFor();

      await page.getByRole('combobox', { name: 'Content' }).click();
      await page.getByRole('option', { name: 'Content warnings' }).click();
      await page.getByText('1–1 of 1', { exact: true }).waitFor({ timeout: scaled(20_000) });
      expect(new URL(page.url()).searchParams.get('content_warnings')).toBe('1');
      const rows = page.getByRole('table', { name: 'Recordings' }).locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(1);

      await rows
        .first()
        .getByRole('button', { name: /^Play recording/ })
        .click();
      const dialog = page.getByRole('dialog');
      const summary = dialog.getByTestId('content-summary');
      await summary.waitFor({ timeout: scaled(20_000) });
      expect(await summary.textContent()).toBe(
        'Integrated loudness -21.3 LUFS · longest silence 3 min · peak -1.8 dBFS',
      );
      const strip = dialog.getByRole('img', { name: /^Loudness over the recording: / });
      expect(await strip.locator('[data-testid="strip-silent"]').count()).toBe(MUTED.to - MUTED.from);
      // The strip spans the dialog's width and stays inside the window.
      const box = await strip.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(size.width < 1000 ? 600 : 800);
      expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(size.width);
      // The muted minutes are marked where they fell: 72 to 90 of the 180 windows.
      const silent = await strip.locator('[data-testid="strip-silent"]').first().boundingBox();
      expect(((silent?.x ?? 0) - (box?.x ?? 0)) / (box?.width ?? 1)).toBeCloseTo(MUTED.from / 180, 2);
      if (size === SCREEN_SIZES[0]) await screenshotOnceDialogsShown(page, 'recording-content');

      // Its sound alone, for listeners: made by the server on the first asking, saved by the browser.
      const audio = dialog.getByRole('button', { name: 'Download audio' });
      const button = await audio.boundingBox();
      expect((button?.x ?? 0) + (button?.width ?? Infinity)).toBeLessThanOrEqual(size.width);
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: scaled(60_000) }), audio.click()]);
      expect(download.suggestedFilename()).toBe('recording.m4a');
      const saved = path.join(dataDir, `audio-${size.width}.m4a`);
      await download.saveAs(saved);
      expect(integratedLufs(saved)).toBeGreaterThanOrEqual(-17);
      expect(integratedLufs(saved)).toBeLessThanOrEqual(-15);
      await context.close();
    });
  }
});
