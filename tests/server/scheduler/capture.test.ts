import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsResponseSchema } from '../../../contract/scheduler';
import { messagesOf, SchedulerEnv } from './helpers';

const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A live HLS broadcast made by ffmpeg from a test pattern, served over HTTP on 127.0.0.1. */
async function startLocalBroadcast(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-broadcast-'));
  const ffmpeg: ChildProcess = spawn(
    FFMPEG,
    [
      '-hide_banner', '-loglevel', 'error', '-nostdin',
      '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=10',
      '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '10', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-f', 'hls', '-hls_time', '1', '-hls_list_size', '6', '-hls_flags', 'delete_segments',
      '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'stream.m3u8'),
    ],
    { stdio: 'ignore' },
  );
  const server = http.createServer((request, response) => {
    const file = path.join(dir, path.basename(new URL(request.url ?? '/', 'http://x').pathname));
    fs.readFile(file, (error, body) => {
      if (error) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await until('the broadcast playlist', () => fs.existsSync(path.join(dir, 'stream.m3u8')), 20_000);
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/stream.m3u8`,
    stop: async () => {
      ffmpeg.kill('SIGKILL');
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('a due job on the local capture driver', () => {
  let broadcast: Awaited<ReturnType<typeof startLocalBroadcast>>;
  beforeAll(async () => {
    broadcast = await startLocalBroadcast();
  }, 30_000);
  afterAll(() => broadcast?.stop());

  it('launches a real recorder that captures the stream, once, through the capture fleet', async () => {
    const env = await SchedulerEnv.create({
      start: '2026-11-06T11:00:00Z',
      mosques: [{ id: 'local00001', name: 'Local Broadcast', url: broadcast.url, timezone: 'UTC', fridayPrayer: '12:30' }],
    });
    let instanceId: string | undefined;
    const s = await env.build({ realLauncher: true });
    try {
      const token = await s.login();
      await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
      env.clock.set('2026-11-06T12:10:00Z');
      await s.runDue();

      const jobs = jobsResponseSchema.parse((await s.request({ method: 'GET', url: '/api/scheduler/jobs', token: await s.login() })).json()).data.jobs;
      const job = jobs.find((j) => j.kind === 'recording');
      expect(job, JSON.stringify(job)).toMatchObject({ status: 'launched', attempts: 1, last_error: null });
      instanceId = job?.instance_id ?? undefined;
      expect(instanceId).toMatch(/^cap-/);
      // The fleet announced the launch; the scheduler did not announce it a second time.
      expect(messagesOf(s.published, 'launch_complete').filter((m) => m.data.job_id === job?.id)).toHaveLength(1);

      const id = instanceId ?? '';
      const instance = await until('the recorder to run', async () => {
        const found = (await s.app.ctx.instances.list()).find((i) => i.id === id);
        return found?.state === 'running' && found;
      });
      expect(instance).toMatchObject({ mosque_id: 'local00001', url: broadcast.url, duration: 7200 });
      const recording = await until('media in the recording', async () => {
        const found = await s.app.ctx.recordings.forInstance(id);
        return found && found.bytes > 0 ? found : undefined;
      });
      expect(recording.status).toBe('recording');

      // Launching the same job again (a retry after a crash) starts nothing new.
      const again = await s.app.ctx.capture.launch({ url: broadcast.url, duration: 7200, width: 1280, height: 720, mosque_id: 'local00001', method: 'api' }, { jobId: job?.id, idempotencyKey: job?.id });
      expect(again).toMatchObject({ launchId: id, existing: true });
      expect((await s.app.ctx.instances.list()).filter((i) => i.mosque_id === 'local00001')).toHaveLength(1);
    } finally {
      if (instanceId) {
        const id = instanceId;
        await s.app.ctx.capture.terminate(id).catch(() => undefined);
        await until('the recorder to stop', async () => (await s.app.ctx.instances.list()).find((i) => i.id === id)?.state === 'terminated', 45_000).catch(() => undefined);
      }
      await env.dispose();
    }
  }, 120_000);
});
