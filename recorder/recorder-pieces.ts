/*
 * The pieces a capture is made of: every ffmpeg run writes short MPEG-TS pieces into pieces/ of the
 * instance folder (run-0003-00012.ts: run 3, piece 12, so names sort in recording order). Each piece
 * ffmpeg closes goes to the segment sink (the local folder keeps it; a sink that ships pieces to an
 * object store plugs in here) and is measured with ffprobe; at window end the pieces are joined
 * without re-encoding into the one output file. Part of the recorder runtime: Node and its siblings.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildJoinArgs, type RunOutput } from './ffmpeg-args';
import { readJson, writeJsonAtomic } from './recorder-state';

/** Where closed pieces go. */
export interface SegmentSink {
  /** A piece ffmpeg finished: complete, never written again. */
  closed(file: string): void;
  /** Whether a piece counts towards the coverage (a shipping sink: only once it reached the store). */
  counts?(name: string): boolean;
}

/** Pieces stay in the instance folder until the join. */
export const localFolderSink: SegmentSink = { closed: () => undefined };

const PIECE = /^run-(\d{4})-\d{5}\.ts$/;

export class PieceStore {
  /** Probed seconds per piece name; null when ffprobe found no media in it. */
  private readonly seconds: Record<string, number | null>;
  private readonly listed = new Set<string>();
  private probing: Promise<void> = Promise.resolve();

  constructor(
    readonly folder: string,
    private readonly probesFile: string,
    private readonly ffprobePath: string,
    private readonly sink: SegmentSink,
  ) {
    this.seconds = readJson<Record<string, number | null>>(probesFile) ?? {};
  }

  /** Makes the folder; the system's reason when it cannot (a full or read-only disk). */
  prepare(): string | null {
    try {
      fs.mkdirSync(this.folder, { recursive: true });
      return null;
    } catch (error) {
      return `Could not create ${this.folder}: ${(error as Error).message}`;
    }
  }

  outputFor(run: number): RunOutput {
    const stem = `run-${String(run).padStart(4, '0')}`;
    return {
      piecePattern: path.join(this.folder, `${stem}-%05d.ts`),
      listPath: path.join(this.folder, `${stem}.list`),
    };
  }

  /** Hands newly closed pieces of a run (those its list names) to the sink and measures them. */
  collectClosed(run: number): void {
    let names: string[];
    try {
      names = fs
        .readFileSync(this.outputFor(run).listPath, 'utf8')
        .split('\n')
        .map((l) => path.basename(l.trim()))
        .filter(Boolean);
    } catch {
      return;
    }
    for (const name of names) {
      if (this.listed.has(name)) continue;
      this.listed.add(name);
      const file = path.join(this.folder, name);
      this.sink.closed(file);
      if (!(name in this.seconds)) this.probing = this.probing.then(() => this.probe(name));
    }
  }

  /**
   * Hands every piece already on disk to the sink: started again after a crash, the pieces of the runs
   * before (their ffmpeg is gone) go to the store now rather than at window end.
   */
  resume(): void {
    for (const name of this.names()) {
      this.listed.add(name);
      this.sink.closed(path.join(this.folder, name));
      if (!(name in this.seconds)) this.probing = this.probing.then(() => this.probe(name));
    }
  }

  /**
   * Every piece on disk in recording order, measured, and handed to the sink when it was not yet (the
   * last piece of a killed run was never listed). Only once no ffmpeg writes any more.
   */
  async measureAll(): Promise<void> {
    await this.probing;
    for (const name of this.names()) {
      if (!(name in this.seconds)) await this.probe(name);
      if (!this.listed.has(name) && this.seconds[name]) {
        this.listed.add(name);
        this.sink.closed(path.join(this.folder, name));
      }
    }
  }

  /** Pieces of a run on disk that its list does not name: the one a killed ffmpeg was writing. */
  unlistedOf(run: number): string[] {
    const stem = `run-${String(run).padStart(4, '0')}-`;
    let listed: Set<string>;
    try {
      listed = new Set(
        fs
          .readFileSync(this.outputFor(run).listPath, 'utf8')
          .split('\n')
          .map((l) => path.basename(l.trim())),
      );
    } catch {
      listed = new Set();
    }
    return this.names()
      .filter((name) => name.startsWith(stem) && !listed.has(name))
      .map((name) => path.join(this.folder, name));
  }

  /** Probed seconds of one run's pieces so far (of those the sink counts). */
  secondsOf(run: number): number {
    let total = 0;
    for (const { name, seconds } of this.measured()) if (Number(PIECE.exec(name)?.[1]) === run) total += seconds;
    return total;
  }

  /** Whether every piece of a run with media counts (a shipping sink: reached the store). */
  allCount(run: number): boolean {
    return Object.entries(this.seconds).every(
      ([name, seconds]) => !seconds || Number(PIECE.exec(name)?.[1]) !== run || (this.sink.counts?.(name) ?? true),
    );
  }

  /** The pieces with media that count, in recording order, with their probed seconds. */
  measured(): { name: string; seconds: number }[] {
    return Object.entries(this.seconds)
      .filter((entry): entry is [string, number] => Boolean(entry[1]) && (this.sink.counts?.(entry[0]) ?? true))
      .map(([name, seconds]) => ({ name, seconds }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  bytes(): number {
    let total = 0;
    for (const name of this.names()) total += fileSize(path.join(this.folder, name));
    return total;
  }

  /** Joins the measured pieces into `output`; an error sentence when it could not. */
  async join(ffmpegPath: string, output: string): Promise<string | null> {
    const pieces = this.names().filter((name) => (this.seconds[name] ?? 0) > 0);
    if (pieces.length === 0) return 'No media was recorded';
    const listFile = path.join(this.folder, 'join.txt');
    const temporary = `${output}.joining.mp4`;
    try {
      fs.writeFileSync(
        listFile,
        pieces.map((name) => `file '${path.join(this.folder, name).replace(/'/g, "'\\''")}'\n`).join(''),
      );
      const error = await run(ffmpegPath, buildJoinArgs(listFile, temporary), 30 * 60_000);
      if (error) throw new Error(error);
      fs.renameSync(temporary, output);
      return null;
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      return `Could not join the recorded pieces: ${(error as Error).message}`;
    }
  }

  /** The pieces are in the joined file: their folder goes (a sink that ships them keeps its copies). */
  discard(): void {
    fs.rmSync(this.folder, { recursive: true, force: true });
  }

  private names(): string[] {
    try {
      return fs
        .readdirSync(this.folder)
        .filter((name) => PIECE.test(name))
        .sort();
    } catch {
      return [];
    }
  }

  private async probe(name: string): Promise<void> {
    this.seconds[name] = await probeSeconds(this.ffprobePath, path.join(this.folder, name));
    try {
      writeJsonAtomic(this.probesFile, this.seconds);
    } catch {
      // kept in memory; a relaunched recorder measures again
    }
  }
}

/** Seconds of media in a file by ffprobe, or null when it holds none (or cannot be read). */
export function probeSeconds(ffprobePath: string, file: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file],
      { encoding: 'utf8', timeout: 30_000 },
      (error, stdout) => {
        const seconds = Number.parseFloat(stdout.trim());
        resolve(!error && Number.isFinite(seconds) && seconds > 0 ? seconds : null);
      },
    );
  });
}

function run(binary: string, args: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve(null);
        resolve(stderr.trim().split('\n').at(-1) || error.message.split('\n')[0]);
      },
    );
  });
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
