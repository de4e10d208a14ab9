import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingConfig } from '../../../contract/mosques';
import {
  parseRecordArgs,
  parseRecordingFile,
  planRecordings,
  RecordCliError,
} from '../../../server/modules/recording-configs/record-file';
import { scaled } from '../../../testkit/time-scale';

const run = promisify(execFile);
const CONFIG: RecordingConfig = {
  url: 'https://www.youtube.com/channel/UCmecca123/live',
  duration: 7200,
  width: 1080,
  height: 576,
  method: 'api',
  api_base_url: 'https://capture.example.org',
  mosque_id: 'abcde12345',
  mosque_name: 'Masjid al-Haram',
  friday_prayer: '2026-11-27T09:08:00.000Z',
  recording_start: '2026-11-27T08:48:00.000Z',
  timezone: 'Asia/Riyadh',
};

describe('npm run record: arguments', () => {
  it('reads --config, --now, --output and --dry-run, in either spelling', () => {
    expect(parseRecordArgs(['--config', 'gen.json'])).toEqual({
      config: 'gen.json',
      now: false,
      output: 'recordings',
      dryRun: false,
      help: false,
    });
    expect(parseRecordArgs(['--config=gen.json', '--now', '--output', 'out', '--dry-run'])).toEqual({
      config: 'gen.json',
      now: true,
      output: 'out',
      dryRun: true,
      help: false,
    });
    expect(parseRecordArgs(['-c', 'a.json', '-o', 'b'])).toMatchObject({ config: 'a.json', output: 'b' });
    expect(parseRecordArgs(['--help']).help).toBe(true);
  });

  it.each([
    [[], /--config <file.json> is required/],
    [['--config'], /--config needs a value/],
    [['--config', '--now'], /--config needs a value/],
    [['--config', 'a.json', '--fast'], /Unknown argument: --fast/],
    [['gen.json'], /Unknown argument: gen.json/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseRecordArgs(argv)).toThrow(RecordCliError);
    expect(() => parseRecordArgs(argv)).toThrow(message);
  });
});

describe('npm run record: the generated file', () => {
  it('accepts the downloaded recordings array and the whole generate result', () => {
    expect(parseRecordingFile(JSON.stringify([CONFIG]))).toEqual([CONFIG]);
    expect(parseRecordingFile(JSON.stringify({ total_configs: 1, recordings: [CONFIG], skipped: [] }))).toEqual([
      CONFIG,
    ]);
    // Only url, duration, width, height and method are needed (a hand-written file).
    const minimal = {
      url: 'rtmp://media.example.org/live/x',
      duration: 60,
      width: 640,
      height: 360,
      method: 'sequential',
    };
    expect(parseRecordingFile(JSON.stringify([minimal]))).toEqual([minimal]);
  });

  it.each([
    ['not json', /is not valid JSON/],
    ['{}', /not a recording configuration file/],
    ['[]', /has no recordings/],
    [JSON.stringify([{ ...CONFIG, url: '' }]), /0\.url/],
    [JSON.stringify([{ ...CONFIG, duration: -5 }]), /0\.duration/],
    [JSON.stringify([{ ...CONFIG, width: 'wide' }]), /0\.width/],
    [JSON.stringify([{ ...CONFIG, method: 'parallel' }]), /0\.method/],
    [JSON.stringify([{ ...CONFIG, recording_start: 'next friday' }]), /0\.recording_start/],
    [JSON.stringify({ recordings: [CONFIG, { url: 'x' }] }), /recordings\.1\.duration|1\.duration/],
    [
      JSON.stringify([CONFIG, { ...CONFIG, url: 'http://***@h/x.m3u8' }]),
      /recordings\.1\.url has its password or token masked/,
    ],
    [JSON.stringify([{ ...CONFIG, url: 'https://h/x.m3u8?quality=hd&token=***' }]), /recordings\.0\.url .* masked/],
  ])('refuses %s', (text, message) => {
    expect(() => parseRecordingFile(text, 'gen.json')).toThrow(message);
  });

  it('plans each recording at its recording_start, or now', () => {
    const now = new Date('2026-11-27T08:00:00Z');
    const later = { ...CONFIG, mosque_id: 'later00001', recording_start: '2026-11-27T11:29:00.000Z' };
    const running = { ...CONFIG, mosque_id: 'running001', recording_start: '2026-11-27T07:30:00.000Z' };
    const over = { ...CONFIG, mosque_id: 'over000001', recording_start: '2026-11-27T05:00:00.000Z', duration: 3600 };
    const noStart = { ...CONFIG, mosque_id: 'nostart001', recording_start: null };
    const { planned, skipped } = planRecordings([later, CONFIG, running, over, noStart], now, false);
    expect(planned.map((p) => [p.config.mosque_id, p.startAt.toISOString()])).toEqual([
      ['running001', '2026-11-27T08:00:00.000Z'],
      ['nostart001', '2026-11-27T08:00:00.000Z'],
      ['abcde12345', '2026-11-27T08:48:00.000Z'],
      ['later00001', '2026-11-27T11:29:00.000Z'],
    ]);
    expect(skipped.map((s) => [s.config.mosque_id, s.reason])).toEqual([
      ['over000001', 'its recording window ended at 2026-11-27T06:00:00.000Z'],
    ]);
    expect(planRecordings([later, over], now, true).planned.map((p) => p.startAt.toISOString())).toEqual([
      '2026-11-27T08:00:00.000Z',
      '2026-11-27T08:00:00.000Z',
    ]);
  });
});

describe('npm run record: the command', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'server/modules/recording-configs/record-cli.ts', ...args], {
      cwd: path.resolve(__dirname, '../../..'),
      timeout: scaled(20_000),
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('prints the plan of a generated file with --dry-run', async () => {
    const file = path.join(dir, 'gen.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ total_configs: 1, recordings: [{ ...CONFIG, recording_start: '2099-01-02T03:04:00.000Z' }] }),
    );
    const result = await cli(['--config', file, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('planned Masjid al-Haram at 2099-01-02T03:04:00.000Z (at recording_start)');
  });

  it('exits 2 with the reason for a bad file or command line', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify([{ url: 'x' }]));
    const bad = await cli(['--config', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a recording configuration file[\s\S]*0\.duration/);
    const missing = await cli(['--config', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.json: ENOENT/);
    const usage = await cli([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run record -- --config <file.json>');
  });
});
