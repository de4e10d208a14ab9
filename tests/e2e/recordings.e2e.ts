import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeNotifications,
  launchBrowser,
  screenshot,
  seedFailedCaptures,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';
import { scaled } from '../../testkit/time-scale';
import { waitFor } from '../../testkit/wait';

/*
 * Issue 12 in the browser, against the real server: a real capture of the built-in test broadcast shows
 * up on the Recordings page and plays in Chromium (the <video> element's clock advances, fed by range
 * requests through a signed link); the list filters, pages and deletes with confirmation.
 */

/** A captured recording with two holes (a late start that lost nothing, a 70 s stall), written into the database. */
function seedHoledCapture(dataDir: string, at: Date): void {
  const iso = (seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();
  const gaps = [
    {
      start: iso(0),
      end: iso(30),
      cause: 'not_live_yet',
      reason: 'The stream was not live yet (HTTP 404)',
      content_lost_seconds: 0,
    },
    {
      start: iso(600),
      end: iso(670),
      cause: 'stream_stalled',
      reason: 'No new segment for 70 s',
      content_lost_seconds: 70,
    },
  ];
  const db = new Database(path.join(dataDir, 'capture.db'));
  try {
    db.prepare(
      `insert into instances (id, provider, scope, provider_instance_id, name, state, instance_type, mosque_id, url, method, duration, width, height, launch_time, ended_at, updated_at)
       values ('cap-holed0000001', 'local', '', 'cap-holed0000001', 'capture-holed', 'terminated', 'local', null, 'https://streams.example.com/holed.m3u8', 'api', 7200, 320, 240, ?, ?, ?)`,
    ).run(iso(0), iso(7200), iso(7200));
    db.prepare(
      `insert into recordings (id, instance_id, mosque_id, url, status, started_at, ended_at, bytes, duration_seconds, file_path, reason, expected_seconds, covered_seconds, gaps, updated_at)
       values ('rec-holed0000001', 'cap-holed0000001', null, 'https://streams.example.com/holed.m3u8', 'captured', ?, ?, 0, 7100, null, null, 7200, 7100, ?, ?)`,
    ).run(iso(0), iso(7200), JSON.stringify(gaps), iso(7200));
  } finally {
    db.close();
  }
}

describe('Recordings page in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ demoStream: true, env: { ALLOW_PRIVATE_STREAM_HOSTS: '1' } });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const table = () => page.getByRole('table', { name: 'Recordings' });
  /** Launches a capture of the demo stream through the page's session, as the console would; its instance id. */
  const launchDemoCapture = (duration: number) =>
    page.evaluate(async (seconds) => {
      const headers = {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
      };
      const demo = (await (await fetch('/api/instances/demo-stream', { headers })).json()) as { data: { url: string } };
      const body = JSON.stringify({ configs: [{ url: demo.data.url, duration: seconds, width: 320, height: 240 }] });
      const launched = (await (await fetch('/api/instances/launch', { method: 'POST', headers, body })).json()) as {
        data: { instances: { id: string }[] };
      };
      return launched.data.instances[0].id;
    }, duration);
  /** The instance's recording as the page's session reads it (undefined until there is one). */
  const recordingOf = (instanceId: string) =>
    page.evaluate(async (id) => {
      const response = await fetch(`/api/recordings?instance_id=${id}`, {
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      const list = (await response.json()) as {
        data: { recordings: { id: string; status: string; bytes: number; started_at: string }[] };
      };
      return list.data.recordings.at(0);
    }, instanceId);

  it('records the test broadcast for a few seconds, then lists it with ten older failed captures', async () => {
    await signInOnNextLoad(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/profile`);
    const instanceId = await launchDemoCapture(8);
    // Polled once a second: the demo stream is recorded in real time.
    const recordingId = await waitFor(
      async () => {
        const recording = await recordingOf(instanceId);
        return recording && recording.status !== 'recording' ? recording.id : undefined;
      },
      'the capture to end',
      120_000,
      1000,
    );
    expect(recordingId).toMatch(/^rec-/);
    seedFailedCaptures(server.dataDir);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Recordings' }).click();
    await page.getByRole('heading', { name: 'Recordings', level: 1 }).waitFor();
    await page.getByText('1–10 of 11').waitFor();
    await page
      .getByLabel('Recording storage')
      .getByText(/free on this disk/)
      .waitFor();
    // Launched by hand, the capture is a one-off: listed under its own day (a Sunday here), never a Friday's.
    const ownDay = (await recordingOf(instanceId))?.started_at.slice(0, 10);
    const newestDay = table().locator('tbody tr').first().locator('td').nth(1);
    expect(await newestDay.innerText()).toBe(`${ownDay}\none-off`);
    await screenshot(page, 'recordings-list');
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText('11–11 of 11').waitFor();
    await page.getByRole('button', { name: 'Go to previous page' }).click();
  });

  it('filters by outcome', async () => {
    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await page.getByText('1–10 of 10').waitFor();
    expect(
      await table()
        .getByRole('button', { name: /^Play recording/ })
        .first()
        .isDisabled(),
    ).toBe(true);
    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'All', exact: true }).click();
    await page.getByText('1–10 of 11').waitFor();
  });

  it('plays the real capture in the browser', async () => {
    const play = table()
      .getByRole('button', { name: /^Play recording/ })
      .and(page.locator(':not([disabled])'));
    await play.first().click();
    const video = page.getByTestId('recording-player');
    await video.waitFor();
    await expect
      .poll(() => video.evaluate((element) => (element as HTMLVideoElement).currentTime), {
        timeout: scaled(20_000),
        interval: 500,
      })
      .toBeGreaterThan(1);
    const played = await video.evaluate((element) => ({
      duration: (element as HTMLVideoElement).duration,
      error: (element as HTMLVideoElement).error?.code ?? null,
    }));
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(3);
    await screenshot(page, 'recordings-player');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  });

  it('deletes a recording after confirmation', async () => {
    await table()
      .getByRole('button', { name: /^Delete recording/ })
      .last()
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete recording?' });
    await confirm.getByText(/will be removed from the store/).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Recording deleted').waitFor();
    await closeNotifications(page);
    await page.getByText('1–10 of 10').waitFor();
  });

  it('as a tablet keeps Play, Download and Delete in view: Size and Store give their room', async () => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.getByText('1–10 of 10').waitFor();
    expect(await table().getByRole('columnheader', { name: 'Store' }).isVisible()).toBe(false);
    for (const action of [/^Play recording/, /^Download recording/, /^Delete recording/]) {
      const box = await table().getByRole('button', { name: action }).first().boundingBox();
      expect(box, `${action}`).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${action} ends inside the 820 px window`).toBeLessThanOrEqual(820);
    }
  });

  it("says who stopped a capture, and lists a recording's holes with their causes", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const instanceId = await launchDemoCapture(600);
    // Polled once a second: the demo stream is recorded in real time.
    await waitFor(async () => ((await recordingOf(instanceId))?.bytes ?? 0) > 0, 'media to be recorded', 60_000, 1000);
    await page.evaluate(async (id) => {
      await fetch('/api/instances/terminate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
        body: JSON.stringify({ instance_ids: [id] }),
      });
    }, instanceId);
    const stoppedId = await waitFor(
      async () => {
        const recording = await recordingOf(instanceId);
        return recording && recording.status !== 'recording' ? recording.id : undefined;
      },
      'the stopped capture to end',
      60_000,
      1000,
    );
    seedHoledCapture(server.dataDir, new Date(Date.now() - 3 * 3600_000));
    await page.reload();
    await table().getByText(stoppedId).waitFor();
    const row = (id: string) => table().getByRole('row').filter({ hasText: id });
    await row(stoppedId).getByText('Stopped by admin').waitFor();
    await row('rec-holed0000001').getByRole('button', { name: '2 holes · 70 s lost' }).click();
    const holes = page.getByRole('table', { name: /^Holes of Ad-hoc capture/ });
    await holes.getByText('Stream stalled', { exact: true }).waitFor();
    expect(await holes.getByText('Not live yet', { exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'recordings-holes-and-stop');
  });
});
