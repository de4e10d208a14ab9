/*
 * ffmpeg's command lines: one run of a capture, and the final join. Part of the recorder runtime (no
 * imports beyond its siblings). A run writes short MPEG-TS pieces (each starting on a key frame, its
 * timestamps reset) and lists each one as it closes, so whatever a stop, a stall or a crash cuts short
 * loses at most the piece being written, and the pieces of every run join without re-encoding.
 */
import { contentInputOptions, contentOutput, loudnessFileOf } from './content-filters';
import { DEFAULT_CONTENT_ALARM_SECONDS, type RecorderConfig } from './protocol';

/** Network protocols the input may use; "file" and ffmpeg's special protocols are not among them. */
const NETWORK_PROTOCOLS = 'http,https,tcp,tls,crypto,data,httpproxy,rtmp,rtmps,rtmpt,rtmpts,rtsp,rtsps,rtp,udp,srt';
/** Under the egress guard: only what reaches the stream through the egress proxy (HTTP, and TLS in a CONNECT tunnel). */
const PROXIED_PROTOCOLS = 'http,https,tcp,tls,crypto,data,httpproxy';

/**
 * Demuxers of live broadcasts (HLS and DASH with their TS, fMP4 and packed-audio segments, FLV over
 * RTMP, RTSP with its SDP, raw TS over SRT/UDP). Without this list ffmpeg probes any response, and
 * e.g. its `tty` demuxer renders a text file into the video, which the operator can then download.
 */
const MEDIA_FORMATS = 'hls,dash,mpegts,mov,flv,live_flv,rtsp,sdp,rtp,aac,mp3,ac3,eac3,matroska,webvtt';

/** How ffmpeg (and ffprobe, which takes the same options) reads a stream at `url`. */
export function inputOptions(url: string, guarded: boolean): string[] {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  const common = [
    '-protocol_whitelist',
    guarded ? PROXIED_PROTOCOLS : NETWORK_PROTOCOLS,
    '-format_whitelist',
    MEDIA_FORMATS,
  ];
  if (scheme === 'http' || scheme === 'https') {
    // Reconnect dropped HTTP connections; give up on one silent read after 15 s (the watchdog decides the rest).
    return [
      ...common,
      '-reconnect',
      '1',
      '-reconnect_streamed',
      '1',
      '-reconnect_delay_max',
      '5',
      '-rw_timeout',
      '15000000',
    ];
  }
  if (scheme === 'rtsp' || scheme === 'rtsps') return [...common, '-rtsp_transport', 'tcp'];
  if (scheme === 'rtmp' || scheme === 'rtmps') return [...common, '-rw_timeout', '15000000'];
  return common;
}

export interface RunOutput {
  /** Pattern of the run's pieces, with one %05d. */
  piecePattern: string;
  /** The list ffmpeg appends a line to as each piece closes. */
  listPath: string;
}

/** What a run reads: the stream itself, or MPEG-TS segments the recorder fetched and writes to ffmpeg's stdin. */
export const FED_INPUT = 'pipe:0';

/**
 * `audioOnly`: the stream has no picture (a radio stream). Its pieces then carry one audio frame per
 * PES packet: packed several to a packet (the muxer's default), a piece's length reads short by most
 * of its last packet, and the join, which places each piece after the one before by that length, lost
 * about 0.12 s of MP3 at every join (0.75 s of 12 s); with video, a piece's length is its video's.
 */
export function buildFfmpegArgs(
  config: RecorderConfig,
  inputUrl: string,
  output: RunOutput,
  audioOnly = false,
): string[] {
  const fed = inputUrl === FED_INPUT;
  return [
    '-hide_banner',
    '-loglevel',
    'info',
    '-nostats',
    '-progress',
    'pipe:1',
    // Segments written to stdin are read at once: ffmpeg needs only a second of them to know the streams.
    ...(fed
      ? ['-f', 'mpegts', '-probesize', '1000000', '-analyzeduration', '1000000']
      : inputOptions(inputUrl, !config.egress?.allowPrivate)),
    ...(config.measureContent === false ? [] : contentInputOptions(Boolean(config.sourceAsIs))),
    '-i',
    inputUrl,
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    ...(config.sourceAsIs ? ['-c', 'copy'] : encoderOptions(config)),
    '-f',
    'segment',
    '-segment_time',
    String(config.settings.segmentSeconds),
    '-segment_format',
    'mpegts',
    // Each piece writes every packet through at once: one cut short by a kill holds everything up to it.
    '-segment_format_options',
    audioOnly ? 'flush_packets=1:pes_payload_size=0' : 'flush_packets=1',
    '-reset_timestamps',
    '1',
    '-segment_list',
    output.listPath,
    '-segment_list_type',
    'flat',
    '-segment_list_flags',
    'live',
    '-y',
    output.piecePattern,
    // The same run measures what it records (content-filters.ts).
    ...(config.measureContent === false
      ? []
      : contentOutput(
          Boolean(config.sourceAsIs),
          loudnessFileOf(output.listPath),
          config.contentAlarmSeconds ?? DEFAULT_CONTENT_ALARM_SECONDS,
        )),
  ];
}

/**
 * The recording's configuration: exactly width x height, H.264 and AAC. The picture is fitted inside by
 * its display aspect ratio (`dar`: its pixels' own shape counted, so a 16:9 anamorphic 720x576 source
 * fills a 16:9 frame instead of being pillarboxed as 5:4), then padded, with square pixels.
 */
function encoderOptions(config: RecorderConfig): string[] {
  const { width: w, height: h, settings } = config;
  const keyFrameEvery = Math.max(1, Math.min(2, settings.segmentSeconds));
  const wider = `gt(dar,${w}/${h})`;
  return [
    '-vf',
    `scale=w='if(${wider},${w},trunc(${h}*dar/2)*2)':h='if(${wider},trunc(${w}/dar/2)*2,${h})',pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1`,
    // Every source frame once, at its own time: a constant-rate output would repeat or drop frames to fill jitter.
    '-vsync',
    'passthrough',
    '-c:v',
    'libx264',
    '-preset',
    settings.preset,
    '-crf',
    String(settings.crf),
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    `expr:gte(t,n_forced*${keyFrameEvery})`,
    '-c:a',
    'aac',
    '-b:a',
    settings.audioBitrate,
  ];
}

/** Joins pieces listed in a concat file (`file '<path>'` lines) into one MP4, copying the streams. */
export function buildJoinArgs(listFile: string, outputPath: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    listFile,
    '-map',
    '0',
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    outputPath,
  ];
}
