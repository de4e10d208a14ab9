import type { RecorderConfig } from '../../../recorder/protocol';
import type { RecorderRuntimeLink } from './recorder-bundle';
import { RECORDER_HEAP_LIMIT } from '../local/recorder-runtime';

/** Where the script works on a recorder instance; a test runs it in a sandbox with its own. */
export interface UserDataPaths {
  /** The instance folder, the pieces and the joined file. */
  workDir: string;
  /** What a baked image holds (recorder.mjs) and where missing Node and yt-dlp are put. */
  runtimeDir: string;
  /** Where progress goes: the serial console, what GetConsoleOutput returns. */
  console: string;
}

export const INSTANCE_PATHS: UserDataPaths = {
  workDir: '/var/lib/capture',
  runtimeDir: '/opt/capture-recorder',
  console: '/dev/console',
};
/** The line the user-data prints to the console when the recorder is done; the aws driver reads it back. */
export const RESULT_MARKER = 'CAPTURE_RESULT ';
/** EC2 refuses user-data over 16 KB (before base64). */
export const USER_DATA_LIMIT = 16 * 1024;
/** The Node a stock image gets when it has none as recent (the one the recorder is built for). */
const NODE_VERSION = '22.23.3';

/** Installs what a stock Debian or Ubuntu image lacks; a baked image (scripts/bake-recorder-image.sh) has it all. */
const PREPARE = `# Appended (>>): on the serial console it makes no difference, in a file (a sandbox) nothing is overwritten.
say() { echo "capture: $*" >> "$CONSOLE"; }
export PATH="$RUNTIME/node/bin:$RUNTIME/bin:$PATH"
need=""
command -v ffmpeg >/dev/null 2>&1 || need="$need ffmpeg"
command -v curl >/dev/null 2>&1 || need="$need curl ca-certificates"
if [ -n "$need" ]; then
  say "installing$need"
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -q && apt-get install -y -q $need) >> "$CONSOLE" 2>&1 || say "could not install$need"
fi
ARCH=$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)' 2>/dev/null; then
  say "installing Node ${NODE_VERSION}"
  # nodejs.org, else (a subnet that reaches only package registries) the npm registry's build of the same Node.
  mkdir -p "$RUNTIME/node" && { curl -fsSL --retry 3 "https://nodejs.org/dist/v${NODE_VERSION}/node-v${NODE_VERSION}-linux-$ARCH.tar.gz" | tar -xz -C "$RUNTIME/node" --strip-components=1 ||
    curl -fsSL --retry 3 "https://registry.npmjs.org/node-linux-$ARCH/-/node-linux-$ARCH-${NODE_VERSION}.tgz" | tar -xz -C "$RUNTIME/node" --strip-components=1; } || say "could not install Node"
fi
if ! command -v yt-dlp >/dev/null 2>&1; then
  say "installing yt-dlp"
  suffix=$([ "$ARCH" = arm64 ] && echo _aarch64)
  # GitHub's latest release, else (GitHub not reachable) Debian's package, older but working for most sites.
  mkdir -p "$RUNTIME/bin" && curl -fsSL --retry 3 -o "$RUNTIME/bin/yt-dlp" "https://github.com/yt-dlp/yt-dlp/releases/latest/download/yt-dlp_linux$suffix" && chmod +x "$RUNTIME/bin/yt-dlp" ||
    { rm -f "$RUNTIME/bin/yt-dlp"; DEBIAN_FRONTEND=noninteractive apt-get install -y -q yt-dlp >> "$CONSOLE" 2>&1; } || say "yt-dlp is missing: only direct stream URLs can be recorded"
fi`;

/** A place on an instance shared by several recordings (RECORDINGS_PER_INSTANCE > 1). */
export interface SharedSlot {
  /** 1 for the recording the instance was launched with; the next ones join in order. */
  slot: number;
  /** A pre-signed link to read the object that asks this recorder to stop (an operator's terminate). */
  stopLink: string;
}

/** An instance shared by several recordings: the places after the first are fetched from the store as recordings join. */
export interface SharedInstance {
  slots: number;
  /** After this instant the instance takes no more recordings: it ends once its last recorder has. */
  joinUntil: Date;
  /** A pre-signed link to the script of the second place (each place's script carries the link to the next). */
  nextLink: string;
}

/** The folder of the recorder in place `slot`: the first keeps the one-recording instance's. */
const instanceDir = (slot: number) => (slot === 1 ? '$WORK/instance' : `$WORK/instance-${slot}`);

/** The line a recorder's result is printed on; each place of a shared instance has its own. */
export const resultMarker = (slot = 1) => (slot === 1 ? RESULT_MARKER : `CAPTURE_RESULT-${slot} `);

export function remoteRecorderConfig(
  config: Omit<RecorderConfig, 'ffmpegPath' | 'outputPath' | 'logPath'>,
  fileName: string,
  paths: UserDataPaths = INSTANCE_PATHS,
  slot = 1,
): RecorderConfig {
  return {
    ...config,
    ffmpegPath: 'ffmpeg',
    outputPath: `${paths.workDir}/recordings/${config.mosqueId ?? 'adhoc'}/${fileName}`,
    logPath: `${instanceDir(slot).replace('$WORK', paths.workDir)}/recorder.log`,
  };
}

/**
 * One recorder: its folder, the ledger of the recorder it replaces, its config, its log mirrored to the
 * console, the recorder in the foreground and its result on the console. On a shared instance it runs
 * in the background, and a stop object appearing in the store (the operator's terminate of this one
 * recording) stops it while the others go on.
 */
function recorderCommands(config: RecorderConfig, ledger: string | null | undefined, shared?: SharedSlot): string {
  const dir = instanceDir(shared?.slot ?? 1);
  // A machine replacing one that died starts from the segment ledger that one shipped: it carries on
  // after the last segment delivered. Without it (none shipped yet) it takes the playlist as it is.
  const fetchLedger = ledger
    ? `curl -fsS --retry 3 -o "${dir}/ledger.part" '${ledger}' && mv "${dir}/ledger.part" "${dir}/ledger.json" || { rm -f "${dir}/ledger.part"; say "no segment ledger from the recorder this one replaces"; }`
    : '';
  // What node itself prints (a crash, a heap limit reached) goes to the console too: the recorder's log
  // cannot hold the reason it died with.
  const recorder = `node ${RECORDER_HEAP_LIMIT} "$WORK/recorder.mjs" "${dir}" 2>> "$CONSOLE"`;
  const run = shared
    ? [
        `${recorder} &`,
        'RECORDER_PID=$!',
        // Polled while it records: a stop object means the operator ended this recording only.
        'while kill -0 $RECORDER_PID 2>/dev/null; do',
        `  if curl -fsS -o /dev/null '${shared.stopLink}' 2>/dev/null; then say "recording ${shared.slot} stopped by the operator"; kill -TERM $RECORDER_PID; break; fi`,
        '  sleep 10',
        'done',
        'wait $RECORDER_PID',
      ]
    : [recorder];
  const lines = [
    `mkdir -p "${dir}" '${config.outputPath.slice(0, config.outputPath.lastIndexOf('/'))}'`,
    fetchLedger,
    `cat > "${dir}/config.json" <<'CAPTURE_CONFIG_EOF'`,
    JSON.stringify(config),
    'CAPTURE_CONFIG_EOF',
    `touch '${config.logPath}'`,
    `tail -n +1 -F '${config.logPath}' >> "$CONSOLE" 2>&1 &`,
    'TAIL_PID=$!',
    `cd "${dir}"`,
    ...run,
    `echo "${resultMarker(shared?.slot)}$(tr -d '\\n' < "${dir}/state.json")" >> "$CONSOLE"`,
    'sleep 5',
    'kill $TAIL_PID',
  ].filter(Boolean);
  return shared ? ['(', ...lines, ') &'].join('\n') : lines.join('\n');
}

/**
 * The shell script EC2 runs at boot: installs what is missing, fetches the recorder runtime (one
 * bundled .mjs, by a pre-signed link, checked against its sha256) or takes the image's, writes the
 * recorder's config, mirrors its log to the console, runs it in the foreground (it ships the pieces,
 * the joined file and the metadata to the store itself), prints its final state on one CAPTURE_RESULT
 * line and powers off (the instance is launched with shutdown behaviour "terminate").
 * A shared instance runs its first recorder in the background, then fetches the script of each
 * recording that joins (slotScript) until all its places are taken or joining is over, and powers off
 * once every recorder has ended.
 */
export function buildUserData(
  config: RecorderConfig,
  options: {
    runtime?: RecorderRuntimeLink | null;
    ledger?: string | null;
    paths?: UserDataPaths;
    shared?: SharedInstance & SharedSlot;
  } = {},
): string {
  const { workDir, runtimeDir, console } = options.paths ?? INSTANCE_PATHS;
  const shared = options.shared;
  // The URL and ids are validated (no whitespace, path-safe), so neither the quotes nor the heredoc can be closed early.
  // A download that is not the published runtime (cut short, altered) is removed rather than run.
  const fetchRuntime = options.runtime
    ? [
        `curl -fsS --retry 5 -o "$WORK/recorder.mjs" '${options.runtime.url}' || say "could not download the recorder runtime"`,
        `echo '${options.runtime.sha256}  recorder.mjs' | (cd "$WORK" && sha256sum -c --quiet) || { say "the recorder runtime downloaded does not match its sha256"; rm -f "$WORK/recorder.mjs"; }`,
      ].join('\n')
    : `cp "$RUNTIME/recorder.mjs" "$WORK/recorder.mjs" || say "this image has no recorder runtime at $RUNTIME/recorder.mjs"`;
  // Each place's script (slotScript) sets NEXT_LINK to the next place's and starts its recorder.
  const joining = shared
    ? [
        `NEXT_LINK='${shared.nextLink}'`,
        'SLOT=2',
        `while [ "$SLOT" -le ${shared.slots} ] && [ -n "$NEXT_LINK" ] && [ "$(date +%s)" -lt ${Math.floor(shared.joinUntil.getTime() / 1000)} ]; do`,
        '  if curl -fsS -o "$WORK/slot-$SLOT.part" "$NEXT_LINK" 2>/dev/null && mv "$WORK/slot-$SLOT.part" "$WORK/slot-$SLOT.sh"; then',
        `    say "recording $SLOT of up to ${shared.slots} joined this instance"`,
        '    . "$WORK/slot-$SLOT.sh"',
        '    SLOT=$((SLOT + 1))',
        '  else',
        '    sleep 10',
        '  fi',
        'done',
        'wait',
      ].join('\n')
    : '';
  const script = [
    '#!/bin/bash',
    `# Generated by capture-command-center: ${shared ? `up to ${shared.slots} recordings` : 'one recording'} per instance.`,
    'set -u',
    `WORK='${workDir}'`,
    `RUNTIME='${runtimeDir}'`,
    `CONSOLE='${console}'`,
    PREPARE,
    'mkdir -p "$WORK"',
    fetchRuntime,
    recorderCommands(config, options.ledger, shared),
    joining,
    'shutdown -h now',
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
  if (Buffer.byteLength(script) > USER_DATA_LIMIT)
    throw new Error(`The recorder's user-data is ${Buffer.byteLength(script)} bytes, over EC2's 16 KB`);
  return script;
}

/**
 * The script of a recording that joins a shared instance, fetched and sourced by its user-data: the
 * link to the next place's script, then this recording's recorder in the background.
 */
export function slotScript(
  config: RecorderConfig,
  options: { ledger?: string | null; shared: SharedSlot; nextLink: string | null },
): string {
  return [`NEXT_LINK='${options.nextLink ?? ''}'`, recorderCommands(config, options.ledger, options.shared), ''].join(
    '\n',
  );
}
