/*
 * The pieces a capture is made of: every ffmpeg run writes short MPEG-TS pieces into pieces/ of the
 * instance folder (run-0003-00012.ts: run 3, piece 12, so names sort in recording order). Each piece
 * ffmpeg closes goes to the segment sink (the local folder keeps it; a sink that ships pieces to an
 * object store plugs in here); at window end the pieces are joined without re-encoding into the one
 * output file. Each piece is measured once, from its own timestamps in this process, exactly as
 * ffprobe measured it (the seconds the concat join gives it): an ffprobe process per piece was most of
 * a copying recorder's CPU, the file read and parse is about a millisecond. Part of the recorder
 * runtime: Node and its siblings.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildJoinArgs, type RunOutput } from './ffmpeg-args';
import { mpegTsSeconds } from './mpegts-seconds';

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
  /** Seconds per piece name; null when it holds no media. */
  private readonly seconds = new Map<string, number | null>();
  /** Pieces handed to the sink. */
  private readonly handed = new Set<string>();
  /** Sizes of pieces no ffmpeg writes any more: read once, not on every save. */
  private readonly closedSizes = new Map<string, number>();

  constructor(
    readonly folder: string,
    private readonly sink: SegmentSink,
  ) {}

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
    for (const name of this.listOf(run)) {
      if (this.handed.has(name)) continue;
      this.measure(name);
      this.handTo(name);
    }
  }

  /**
   * Hands every piece already on disk to the sink: started again after a crash, the pieces of the runs
   * before (their ffmpeg is gone) go to the store now rather than at window end.
   */
  resume(): void {
    for (const name of this.names()) this.handTo(name);
  }

  /**
   * Every piece on disk measured, and handed to the sink when it holds media and was not yet (the last
   * piece of a killed run was never listed). Only once no ffmpeg writes any more.
   */
  measureAll(): void {
    for (const name of this.names()) if (this.measure(name)) this.handTo(name);
  }

  /** Pieces of a run on disk that its list does not name: the one a killed ffmpeg was writing. */
  unlistedOf(run: number): string[] {
    const listed = this.listOf(run);
    return this.names()
      .filter((name) => runOf(name) === run && !listed.has(name))
      .map((name) => path.join(this.folder, name));
  }

  /** Seconds of one run's pieces so far (of those the sink counts). */
  secondsOf(run: number): number {
    let total = 0;
    for (const { name, seconds } of this.measured()) if (runOf(name) === run) total += seconds;
    return total;
  }

  /** Whether every piece of a run with media counts (a shipping sink: reached the store). */
  allCount(run: number): boolean {
    return [...this.seconds].every(
      ([name, seconds]) => !seconds || runOf(name) !== run || (this.sink.counts?.(name) ?? true),
    );
  }

  /** The pieces with media that count, in recording order, with their seconds. */
  measured(): { name: string; seconds: number }[] {
    return [...this.seconds]
      .filter((entry): entry is [string, number] => Boolean(entry[1]) && (this.sink.counts?.(entry[0]) ?? true))
      .map(([name, seconds]) => ({ name, seconds }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  bytes(): number {
    let total = 0;
    for (const name of this.names()) {
      const size = this.closedSizes.get(name) ?? fileSize(path.join(this.folder, name));
      if (this.handed.has(name)) this.closedSizes.set(name, size);
      total += size;
    }
    return total;
  }

  /** Joins the measured pieces into `output`; an error sentence when it could not. */
  async join(ffmpegPath: string, output: string): Promise<string | null> {
    const pieces = this.names().filter((name) => (this.seconds.get(name) ?? 0) > 0);
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

  private handTo(name: string): void {
    if (this.handed.has(name)) return;
    this.handed.add(name);
    this.sink.closed(path.join(this.folder, name));
  }

  /** A piece's seconds, read from its timestamps the first time; null when it holds no media or cannot be read. */
  private measure(name: string): number | null {
    const known = this.seconds.get(name);
    if (known !== undefined) return known;
    let seconds: number | null;
    try {
      seconds = mpegTsSeconds(fs.readFileSync(path.join(this.folder, name)));
    } catch {
      seconds = null;
    }
    this.seconds.set(name, seconds);
    return seconds;
  }

  /** The pieces a run's list names (those ffmpeg closed); empty before its first one closed. */
  private listOf(run: number): Set<string> {
    try {
      return new Set(
        fs
          .readFileSync(this.outputFor(run).listPath, 'utf8')
          .split('\n')
          .map((line) => path.basename(line.trim()))
          .filter(Boolean),
      );
    } catch {
      return new Set();
    }
  }
}

const runOf = (name: string) => Number(PIECE.exec(name)?.[1]);

/** Seconds of media in a file by ffprobe, or null when it holds none (or cannot be read): for a joined file, once. */
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
