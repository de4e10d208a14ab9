import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * A clean Debian machine for the recorder's user-data: a minimal Debian root made with debootstrap
 * from Debian's mirror (made once, kept in ~/.cache/capture-debian-root), copied fresh for each run,
 * and entered with chroot in a mount namespace of its own (its /proc, a file as its /dev/console, and
 * the downloaded packages kept between runs). It shares the host's network, so it reaches moto and a
 * local test stream on 127.0.0.1, and it is given the host's own certificate authorities
 * (/usr/local/share/ca-certificates: a network whose egress inspects TLS), as a machine on that
 * network would be; Debian's ca-certificates takes them in when the user-data installs it. Needs root
 * and debootstrap; without them there is a reason to skip.
 */

const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const CACHE = path.join(os.homedir(), '.cache', 'capture-debian-root');
/** Packages downloaded by apt inside the roots (ffmpeg and its libraries): the next run installs from here. */
const APT_CACHE = `${CACHE}-apt`;

const LOCAL_AUTHORITIES = '/usr/local/share/ca-certificates';

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Why a Debian root cannot be made or entered here; null when it can. */
export function debianRootUnavailable(): string | null {
  if (process.platform !== 'linux') return `a Debian root needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'making and entering a Debian root (debootstrap, chroot, mount) needs root';
  const needed = fs.existsSync(path.join(CACHE, 'usr', 'bin', 'apt-get'))
    ? ['unshare', 'chroot']
    : ['debootstrap', 'unshare', 'chroot'];
  const missing = needed.filter((command) => !onPath(command));
  return missing.length > 0
    ? `${missing.join(', ')} not installed (apt-get install -y debootstrap util-linux coreutils)`
    : null;
}

/** The cached pristine root, made now when missing; throws with debootstrap's output when it cannot be. */
export async function pristineDebianRoot(): Promise<{ dir: string; madeNow: boolean }> {
  if (fs.existsSync(path.join(CACHE, 'usr', 'bin', 'apt-get'))) return { dir: CACHE, madeNow: false };
  const partial = `${CACHE}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const { code, output } = await run('debootstrap', ['--variant=minbase', SUITE, partial, MIRROR]);
  if (code !== 0) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw new Error(
      `debootstrap could not make a ${SUITE} root from ${MIRROR} (exit ${code}):\n${output.slice(-2000)}`,
    );
  }
  fs.rmSync(CACHE, { recursive: true, force: true });
  fs.renameSync(partial, CACHE);
  return { dir: CACHE, madeNow: true };
}

export interface DebianMachine {
  root: string;
  /** What the script printed to /dev/console. */
  consoleText(): string;
  /** The arguments `shutdown` was called with, one call a line ('' when never). */
  shutdownCalls(): string;
  remove(): void;
}

/**
 * A fresh copy of the pristine root, with `shutdown` recording its calls instead of powering off and
 * services never started by package installs (policy-rc.d), as in a container image.
 */
export function debianMachine(pristine: string, parent: string): DebianMachine {
  const root = fs.mkdtempSync(path.join(parent, 'debian-'));
  const copied = spawnSync('cp', ['-a', `${pristine}/.`, root]);
  if (copied.status !== 0) throw new Error(`could not copy the Debian root: ${copied.stderr.toString()}`);
  fs.writeFileSync(path.join(root, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  fs.writeFileSync(path.join(root, 'usr/local/sbin/shutdown'), '#!/bin/sh\necho "$*" >> /var/log/shutdown.calls\n', {
    mode: 0o755,
  });
  fs.copyFileSync('/etc/resolv.conf', path.join(root, 'etc/resolv.conf'));
  if (fs.existsSync(LOCAL_AUTHORITIES))
    fs.cpSync(LOCAL_AUTHORITIES, path.join(root, LOCAL_AUTHORITIES), { recursive: true });
  fs.writeFileSync(path.join(root, 'var/log/console.log'), '');
  const read = (file: string) =>
    fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : '';
  return {
    root,
    consoleText: () => read('var/log/console.log'),
    shutdownCalls: () => read('var/log/shutdown.calls'),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs `script` as root's boot script would (bash, as root, a bare environment) inside the machine; resolves with its exit code and output. */
export function runInDebian(machine: DebianMachine, script: string): Promise<{ code: number | null; output: string }> {
  fs.mkdirSync(APT_CACHE, { recursive: true });
  fs.writeFileSync(path.join(machine.root, 'user-data.sh'), script, { mode: 0o700 });
  const r = machine.root;
  const enter = [
    'set -e',
    `mount -t proc proc '${r}/proc'`,
    `mount --bind '${r}/var/log/console.log' '${r}/dev/console'`,
    `mount --bind '${APT_CACHE}' '${r}/var/cache/apt/archives'`,
    `exec chroot '${r}' /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /bin/bash /user-data.sh`,
  ].join('\n');
  return run('unshare', ['--mount', '--propagation', 'private', '--fork', 'bash', '-c', enter]);
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.once('close', (code) => resolve({ code, output }));
  });
}
