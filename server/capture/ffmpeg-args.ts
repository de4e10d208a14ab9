/*
 * ffmpeg's command line for one capture. Part of the recorder runtime (no imports beyond its siblings).
 * The output is fragmented MP4 cut every second and flushed as it goes, so a file cut short by a stop,
 * a stall or a crash still plays up to its last fragment.
 */
import type { RecorderConfig } from './recorder-state';

/** Network protocols the input may use; "file" and ffmpeg's special protocols are not among them. */
const NETWORK_PROTOCOLS = 'http,https,tcp,tls,crypto,data,httpproxy,rtmp,rtmps,rtmpt,rtmpts,rtsp,rtsps,rtp,udp,srt';

/**
 * Demuxers of live broadcasts (HLS and DASH with their TS, fMP4 and packed-audio segments, FLV over
 * RTMP, RTSP with its SDP, raw TS over SRT/UDP). Without this list ffmpeg probes any response, and
 * e.g. its `tty` demuxer renders a text file into the video, which the operator can then download.
 */
const MEDIA_FORMATS = 'hls,dash,mpegts,mov,flv,live_flv,rtsp,sdp,rtp,aac,mp3,ac3,eac3,matroska,webvtt';

function inputOptions(url: string): string[] {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  const common = ['-protocol_whitelist', NETWORK_PROTOCOLS, '-format_whitelist', MEDIA_FORMATS];
  if (scheme === 'http' || scheme === 'https') {
    // Reconnect dropped HTTP connections; give up on one silent read after 15 s (the watchdog decides the rest).
    return [...common, '-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_delay_max', '5', '-rw_timeout', '15000000'];
  }
  if (scheme === 'rtsp' || scheme === 'rtsps') return [...common, '-rtsp_transport', 'tcp'];
  if (scheme === 'rtmp' || scheme === 'rtmps') return [...common, '-rw_timeout', '15000000'];
  return common;
}

export function buildFfmpegArgs(config: RecorderConfig): string[] {
  const { width: w, height: h, settings } = config;
  return [
    '-hide_banner',
    '-loglevel', 'info',
    '-nostats',
    '-progress', 'pipe:1',
    ...inputOptions(config.url),
    '-i', config.url,
    '-t', String(config.duration),
    '-map', '0:v:0?',
    '-map', '0:a:0?',
    // Exactly width x height: fit inside, then pad (letterbox) so the aspect ratio is kept.
    '-vf', `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1`,
    '-c:v', 'libx264',
    '-preset', settings.preset,
    '-crf', String(settings.crf),
    '-pix_fmt', 'yuv420p',
    '-force_key_frames', 'expr:gte(t,n_forced*2)',
    '-c:a', 'aac',
    '-b:a', settings.audioBitrate,
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof',
    '-frag_duration', '1000000',
    // Write each packet through at once: without it a re-encoded fragment can sit in ffmpeg's buffer.
    '-flush_packets', '1',
    '-f', 'mp4',
    '-y', config.outputPath,
  ];
}
