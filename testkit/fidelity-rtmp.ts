import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mergeRanges, clip, type FrameRange, type WindowTruth } from './fidelity-origin';
import { FRAME_CODE, numberedStream, SEGMENT_SECONDS } from './numbered-stream';
import { freePort } from './ports';
import { waitFor } from './wait';

/**
 * The fidelity lab's RTMP origin: the numbered programme (testkit/numbered-stream.ts) played live over
 * RTMP on loopback, taken off the air at scripted times. As an RTMP server does, it takes any number of
 * clients and gives each the programme from the live point: each connection is handed to an ffmpeg of
 * its own (`-listen 1` on a private port, which serves one client and starts playing once it has
 * connected) that plays from the segment on the air by the origin's clock. The truth is kept per
 * connection: which frames it was played, from when (the line ffmpeg writes once its client is
 * connected). Off the air, connections are cut and new ones refused; a frame played to no connection
 * was never on the air for anyone.
 */

/** Nothing listens for `seconds` from `at` seconds after the programme's start: connections are refused. */
export interface RtmpDrop {
  kind: 'rtmp_drop';
  at: number;
  seconds: number;
}

export interface FidelityRtmp {
  url: string;
  /** Epoch ms of the programme's start by the origin's clock, from which the drops are timed. */
  startedAt: number;
  window(from: number, to: number): WindowTruth;
  /** The drops that have happened (epoch ms off the air). */
  faults(): { fault: RtmpDrop; from: number; to: number }[];
  close(): Promise<void>;
}

/**
 * What one listener played to its client: frames from `first`, one every 40 ms from `connectedAt`, until
 * `endedAt`, and no more than its ffmpeg had written by then (`writtenMs` of media, from its progress):
 * a player starved on a busy machine plays behind its clock.
 */
interface Played {
  first: number;
  connectedAt: number;
  endedAt: number | null;
  writtenMs: number;
}

const FRAME_MS = 1000 / FRAME_CODE.fps;
/** ffmpeg writes its output's description once the output is open: for `-listen 1`, once a client has connected. */
const CLIENT_CONNECTED = /Output #0/;
/** ffmpeg's progress: the media time it has written, in microseconds. */
const PROGRESS_TIME = /^out_time_us=(\d+)$/gm;

/** A connection to a local port once it accepts one, else undefined. */
function connectTo(port: number): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

export async function startFidelityRtmp(drops: RtmpDrop[], minutes: number): Promise<FidelityRtmp> {
  const programme = numberedStream(minutes);
  const lists = fs.mkdtempSync(path.join(os.tmpdir(), 'fidelity-rtmp-'));
  const port = await freePort();
  const startedAt = Date.now();
  const played: Played[] = [];
  const happened: { fault: RtmpDrop; from: number; to: number }[] = [];
  /** Each connection's own ffmpeg, and the connection. */
  const connections = new Set<{ player: ChildProcess; client: net.Socket }>();

  /** A VOD playlist of the programme from segment k on, which a player plays in real time (`-re`). */
  const listFrom = (k: number): string => {
    const file = path.join(lists, `from-${k}.m3u8`);
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-PLAYLIST-TYPE:VOD'];
    for (const segment of programme.segments.slice(k))
      lines.push(`#EXTINF:${segment.durationSeconds.toFixed(6)},`, segment.file);
    fs.writeFileSync(file, `${[...lines, '#EXT-X-ENDLIST'].join('\n')}\n`);
    return file;
  };

  /** Hands a client to an ffmpeg of its own, playing from the segment on the air now. */
  const serve = async (client: net.Socket): Promise<void> => {
    client.pause();
    const k = Math.floor((Date.now() - startedAt) / 1000 / SEGMENT_SECONDS);
    if (k >= programme.segments.length) return void client.destroy();
    const playerPort = await freePort();
    const player = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', '-stats_period', '0.1'],
        ...['-re', '-i', listFrom(k)],
        ...['-c', 'copy', '-f', 'flv', '-listen', '1', `rtmp://127.0.0.1:${playerPort}/live/stream`],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const connection = { player, client };
    connections.add(connection);
    let said = '';
    let play: Played | undefined;
    player.stderr?.on('data', (chunk: Buffer) => {
      if (play) return;
      said += chunk.toString();
      if (!CLIENT_CONNECTED.test(said)) return;
      play = { first: programme.segments[k].firstFrame, connectedAt: Date.now(), endedAt: null, writtenMs: 0 };
      played.push(play);
    });
    player.stdout?.on('data', (chunk: Buffer) => {
      const written = [...chunk.toString().matchAll(PROGRESS_TIME)].at(-1)?.[1];
      if (play && play.endedAt === null && written !== undefined) play.writtenMs = Number(written) / 1000;
    });
    const end = () => {
      if (play) play.endedAt ??= Date.now();
      connections.delete(connection);
      player.kill('SIGKILL');
      client.destroy();
    };
    player.once('exit', end);
    client.once('close', end);
    client.on('error', end);
    // The player listens once it has read its input's start: the client's bytes wait until then.
    const upstream = await waitFor<net.Socket | 'gone'>(
      () => (client.destroyed ? 'gone' : connectTo(playerPort)),
      'an RTMP player to listen',
      10_000,
      50,
    );
    if (upstream === 'gone') return;
    upstream.on('error', end);
    upstream.once('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };

  const server = net.createServer((client) => void serve(client).catch(() => client.destroy()));
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const cutAll = () => {
    for (const { player, client } of connections) {
      player.kill('SIGKILL');
      client.destroy();
    }
  };

  const timers = drops.map((fault) =>
    setTimeout(
      () => {
        const from = Date.now();
        server.close();
        for (const play of played) if (play.endedAt === null) play.endedAt = from;
        cutAll();
        setTimeout(() => {
          happened.push({ fault, from, to: Date.now() });
          void listen();
        }, fault.seconds * 1000);
      },
      startedAt + fault.at * 1000 - Date.now(),
    ),
  );

  /** The frames a listener played, by the time it ended (or now), and no more than its ffmpeg wrote once it ended. */
  const rangeOf = (play: Played): FrameRange => {
    const byClock = Math.floor(((play.endedAt ?? Date.now()) - play.connectedAt) / FRAME_MS);
    const written = play.endedAt === null ? byClock : Math.ceil(play.writtenMs / FRAME_MS);
    return { first: play.first, last: play.first + Math.min(byClock, written) - 1 };
  };
  /**
   * When a frame was on the air: as the latest listener that played it played it; a frame none played,
   * by the origin's clock, but never before the end of a listener that played earlier frames.
   */
  const broadcastAt = (frame: number): number => {
    const play = played.findLast((p) => p.first <= frame && frame <= rangeOf(p).last);
    if (play) return play.connectedAt + (frame - play.first) * FRAME_MS;
    const before = played.filter((p) => p.first <= frame).map((p) => p.endedAt ?? Date.now());
    return Math.max(startedAt + frame * FRAME_MS, ...before);
  };

  await listen();
  return {
    url: `rtmp://127.0.0.1:${port}/live/stream`,
    startedAt,
    window: (from, to) => {
      const lastFrame = programme.segments.at(-1)?.lastFrame ?? -1;
      let first: number | null = null;
      let last: number | null = null;
      for (let frame = 0; frame <= lastFrame; frame++) {
        const at = broadcastAt(frame);
        if (at >= to) break;
        if (at < from) continue;
        first ??= frame;
        last = frame;
      }
      const frames = first !== null && last !== null ? { first, last } : null;
      const playedRanges = mergeRanges(played.map(rangeOf).filter((r) => r.first <= r.last));
      const unplayed: FrameRange[] = [];
      let next = 0;
      for (const range of playedRanges) {
        if (range.first > next) unplayed.push({ first: next, last: range.first - 1 });
        next = range.last + 1;
      }
      if (next <= lastFrame) unplayed.push({ first: next, last: lastFrame });
      return { from, to, frames, unavailable: frames ? clip(unplayed, frames) : [], broadcastAt };
    },
    faults: () => happened,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      cutAll();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(lists, { recursive: true, force: true });
    },
  };
}
