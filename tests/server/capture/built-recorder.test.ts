import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchConfigSchema } from '../../../contract/instances';
import { readBuiltRecorder } from '../../../server/capture/aws/recorder-bundle';
import { LocalCaptureProvider } from '../../../server/capture/local/driver';
import {
  BUILT_RECORDER,
  RECORDER_HEAP_LIMIT,
  runtimeIn,
  shippedRecorderRuntime,
} from '../../../server/capture/local/recorder-runtime';
import { RUNTIME_FILES } from '../../../recorder/recorder-state';
import { systemClock } from '../../../server/lib/clock';
import { buildRecorder, buildServer } from '../../../scripts/build-server';
import { killRecorders, startHlsSource, waitFor, type HlsSource } from '../../../testkit/capture';
import { compileCacheMissing, skipIfMissing } from '../../../testkit/prerequisites';
import { scaled } from '../../../testkit/time-scale';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Runs `read` as the server code runs from its sources, without the recorder the server suites build. */
function withoutTestBuild<T>(read: () => T): T {
  const global = globalThis as { __RECORDER_BUNDLE__?: string };
  const testBuild = global.__RECORDER_BUNDLE__;
  delete global.__RECORDER_BUNDLE__;
  try {
    return read();
  } finally {
    global.__RECORDER_BUNDLE__ = testBuild;
  }
}

/** Packages that must load only when their provider is used, never at the server's start. */
/** Lowered by one only: the suites run beside each other in CI, where a recorder niced by 10 was starved. */
const NICENESS = 1;
const ON_DEMAND = /^@aws-sdk\/|^@octokit\//;

describe('the built server and recorder (npm run build)', () => {
  let buildDir: string;
  let dataDir: string;
  let source: HlsSource;

  beforeAll(async () => {
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-build-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-built-recorder-'));
    source = await startHlsSource();
  });
  afterAll(async () => {
    killRecorders(dataDir);
    await source?.close();
    fs.rmSync(buildDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the recorder sources through tsx when the server runs from its sources (npm run dev)', () => {
    // Without the built recorder the server suites give themselves (tests/server/setup.ts).
    const runtime = withoutTestBuild(() => shippedRecorderRuntime());
    expect(runtime.entry).toBe('recorder.ts');
    expect(runtime.files).toEqual(RUNTIME_FILES);
    // recorder/ is the runtime and nothing else: a file added there is copied into every image, or named here.
    expect(fs.readdirSync(path.join(ROOT, 'recorder')).sort()).toEqual([...RUNTIME_FILES].sort());
    expect(runtime.dir).toBe(path.join(ROOT, 'recorder'));
    expect(runtime.nodeArgs[0]).toBe(RECORDER_HEAP_LIMIT);
    expect(runtime.nodeArgs[1]).toBe('--import');
    expect(runtime.nodeArgs[2]).toMatch(/\/tsx\/.*\.m?js$/);
  });

  it('refuses to start a built server whose built recorder is missing', () => {
    expect(() => shippedRecorderRuntime(path.join(buildDir, 'nowhere', BUILT_RECORDER))).toThrow(
      /built recorder .* is missing: run npm run build/,
    );
  });

  it('refuses to publish a built recorder without its hash, or one its hash does not match (a build cut short)', () => {
    const dir = path.join(buildDir, 'half-built');
    const file = path.join(dir, BUILT_RECORDER);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, 'console.log("recorder")\n');
    expect(() => readBuiltRecorder(file)).toThrow(
      `The built recorder ${file} or its .sha256 is missing: run npm run build`,
    );
    fs.writeFileSync(`${file}.sha256`, `${'0'.repeat(64)}  recorder.mjs\n`);
    expect(() => readBuiltRecorder(file)).toThrow(
      `The built recorder ${file} does not match its .sha256: run npm run build`,
    );
  });

  it('keeps the AWS SDK and Octokit out of the server bundle and out of its start', async () => {
    const metafile = await buildServer(path.join(buildDir, 'server'));
    const [output] = Object.values(metafile.outputs).filter((out) => out.entryPoint);
    const onDemand = output.imports.filter((entry) => ON_DEMAND.test(entry.path));
    expect(onDemand.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['@aws-sdk/client-ec2', '@octokit/rest']),
    );
    for (const entry of onDemand)
      expect({ path: entry.path, kind: entry.kind }).toEqual({ path: entry.path, kind: 'dynamic-import' });
    // Native addons are never bundled: they load from node_modules.
    const bundled = Object.keys(metafile.inputs);
    for (const native of ['better-sqlite3', 'argon2'])
      expect(bundled.filter((input) => input.includes(`node_modules/${native}/`))).toEqual([]);
    expect(output.imports.filter((entry) => entry.external).map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['better-sqlite3', 'argon2']),
    );
    // It ships the built recorder and compiles nothing: neither esbuild nor the build script is in it.
    expect(bundled.filter((input) => input.includes('node_modules/esbuild/') || input.startsWith('scripts/'))).toEqual(
      [],
    );
    expect(output.imports.map((entry) => entry.path)).not.toContain('esbuild');
  });

  it('starts the server through a launcher that keeps its compiled code between starts', async ({ skip }) => {
    skipIfMissing(skip, compileCacheMissing());
    // Inside the repository, where the packages left out of the bundle are found (node_modules).
    fs.mkdirSync(path.join(ROOT, 'build'), { recursive: true });
    const launcherBuild = fs.mkdtempSync(path.join(ROOT, 'build', 'launcher-test-'));
    try {
      await buildServer(path.join(launcherBuild, 'server'));
      // A configuration error ends the server right after it has loaded: enough to compile it once.
      const run = spawnSync(process.execPath, [path.join(launcherBuild, 'server', 'main.js')], {
        env: { PATH: process.env.PATH, PORT: 'not-a-port', DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: scaled(30_000),
      });
      expect(run.stderr).toMatch(/PORT must be a number/);
      expect(run.status).toBe(2);
      const cached = fs
        .readdirSync(path.join(launcherBuild, '.compile-cache'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile());
      expect(cached.length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(launcherBuild, { recursive: true, force: true });
    }
  });

  it('records a live stream with the built recorder, run by node alone', { timeout: scaled(60_000) }, async () => {
    const bundle = await buildRecorder(path.join(buildDir, 'recorder'));
    const code = fs.readFileSync(bundle, 'utf8');
    // Its hash beside it (sha256sum's format), what EC2 recorders check their download against.
    expect(readBuiltRecorder(bundle)).toEqual({ code, sha256: crypto.createHash('sha256').update(code).digest('hex') });
    expect(fs.readFileSync(`${bundle}.sha256`, 'utf8')).toMatch(/^[0-9a-f]{64} {2}recorder\.mjs\n$/);
    // One file that needs nothing but Node's own modules (what an image freezes and EC2 runs).
    const imports = [...code.matchAll(/\bfrom\s*"([^"]+)"/g)].map((match) => match[1]);
    expect(imports.filter((name) => !name.startsWith('node:'))).toEqual([]);

    const runtime = shippedRecorderRuntime(bundle);
    expect(runtime).toEqual({
      dir: path.dirname(bundle),
      files: [BUILT_RECORDER],
      entry: BUILT_RECORDER,
      nodeArgs: [RECORDER_HEAP_LIMIT],
    });
    const driver = new LocalCaptureProvider({
      dataDir,
      clock: systemClock,
      recorderRuntime: runtime,
      allowPrivateStreamHosts: true,
      niceness: NICENESS,
    });
    const launched = await driver.launch(
      launchConfigSchema.parse({ url: source.url, duration: 4, width: 320, height: 180, mosque_id: null }),
    );

    const instanceDir = path.join(dataDir, 'instances', launched.providerInstanceId);
    expect(fs.readdirSync(path.join(instanceDir, 'runtime'))).toEqual([BUILT_RECORDER]);
    // The copy is the server user's alone, whatever mode the build left on the bundle.
    expect(fs.statSync(path.join(instanceDir, 'runtime')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(instanceDir, 'runtime', BUILT_RECORDER)).mode & 0o777).toBe(0o600);
    const pid = Number(fs.readFileSync(path.join(instanceDir, 'recorder.pid'), 'utf8'));
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine.slice(1, 4)).toEqual([
      RECORDER_HEAP_LIMIT,
      path.join(instanceDir, 'runtime', BUILT_RECORDER),
      instanceDir,
    ]);
    // Below the server's priority, so that a peak of recorders using every core leaves the console its answers.
    expect(os.getPriority(pid)).toBe(Math.min(19, os.getPriority() + NICENESS));
    // And its session's group, which Linux weighs as a whole against the server's (where autogroup is on).
    if (fs.existsSync(`/proc/${pid}/autogroup`))
      expect(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8')).toMatch(
        new RegExp(`nice ${Math.min(19, os.getPriority() + NICENESS)}$`, 'm'),
      );

    const ended = await waitFor(
      async () => {
        const instance = (await driver.list()).find((item) => item.providerInstanceId === launched.providerInstanceId);
        return instance?.state === 'stopped' ? instance : undefined;
      },
      'the recording to end',
      45_000,
    );
    expect(ended.recording).toMatchObject({ status: 'captured', reason: null });
    expect(fs.statSync(ended.recording?.filePath ?? '').size).toBeGreaterThan(10_000);
    // An instance started from the build keeps running from its own copy: a relaunch finds the same runtime.
    expect(runtimeIn(path.join(instanceDir, 'runtime'))?.entry).toBe(BUILT_RECORDER);
  });
});
