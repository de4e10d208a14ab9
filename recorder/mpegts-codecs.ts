/*
 * What an MPEG-TS segment carries, read from its own tables and headers in this process: each
 * elementary stream's PID and type, and for H.264 video its profile, chroma format, bit depth and frame
 * size (from the sequence parameter set), for ADTS AAC its profile, sample rate and channels. Two
 * segments with the same description can follow each other into one ffmpeg run across an HLS
 * discontinuity: restarting ffmpeg there cost a run (a probe, a new piece, a second of CPU) for
 * timestamps that jumped while nothing ffmpeg had set up changed. Part of the recorder runtime: its
 * sibling only.
 */
import { PACKET, payloadOffset, syncOffset } from './mpegts-seconds';

const SYNC = 0x47;
const H264 = 0x1b;
const ADTS_AAC = 0x0f;
/** Enough of a stream's first bytes to hold its first key frame's parameter sets. */
const SEARCH_BYTES = 256 * 1024;

interface Elementary {
  pid: number;
  type: number;
  /** Payload bytes from its first PES on, until its parameters are read. */
  bytes: number[];
  params: string | null;
}

/**
 * A description of the segment's streams, equal for two segments exactly when one ffmpeg run can read
 * both as it read the first; null when any stream is one this reader cannot describe (another video
 * codec, audio other than ADTS AAC) or its parameters are not in the segment: then it is taken as a change.
 */
export function mpegTsCodecs(bytes: Uint8Array): string | null {
  let pmtPid: number | null = null;
  let streams: Elementary[] | null = null;
  for (let at = syncOffset(bytes); at + PACKET <= bytes.length; at += PACKET) {
    if (bytes[at] !== SYNC) break;
    const pid = ((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2];
    const payload = payloadOffset(bytes, at);
    if (payload === null) continue;
    const unitStart = (bytes[at + 1] & 0x40) !== 0;
    if (pid === 0 && unitStart && pmtPid === null) pmtPid = programMapPid(bytes.subarray(payload, at + PACKET));
    else if (pid === pmtPid && unitStart && streams === null)
      streams = programStreams(bytes.subarray(payload, at + PACKET));
    else if (streams) {
      const stream = streams.find((s) => s.pid === pid);
      if (!stream || stream.params !== null || (!unitStart && stream.bytes.length === 0)) continue;
      if (stream.bytes.length < SEARCH_BYTES) for (let i = payload; i < at + PACKET; i++) stream.bytes.push(bytes[i]);
      stream.params = parametersOf(stream);
      if (streams.every((s) => s.params !== null)) break;
    }
  }
  if (!streams || streams.length === 0 || streams.some((s) => s.params === null)) return null;
  return streams.map((s) => `${s.pid}:${s.type}:${s.params}`).join(' ');
}

/** The PMT's PID from the first program of a PAT section. */
function programMapPid(section: Uint8Array): number | null {
  const start = 1 + section[0]; // pointer field
  const length = ((section[start + 1] & 0x0f) << 8) | section[start + 2];
  const end = Math.min(section.length, start + 3 + length - 4);
  for (let at = start + 8; at + 4 <= end; at += 4) {
    const program = (section[at] << 8) | section[at + 1];
    if (program !== 0) return ((section[at + 2] & 0x1f) << 8) | section[at + 3];
  }
  return null;
}

/** The elementary streams a PMT section lists (one that spans packets is not read: null). */
function programStreams(section: Uint8Array): Elementary[] | null {
  const start = 1 + section[0];
  const length = ((section[start + 1] & 0x0f) << 8) | section[start + 2];
  const end = start + 3 + length - 4;
  if (end > section.length) return null;
  const infoLength = ((section[start + 10] & 0x0f) << 8) | section[start + 11];
  const streams: Elementary[] = [];
  for (let at = start + 12 + infoLength; at + 5 <= end;) {
    const esInfo = ((section[at + 3] & 0x0f) << 8) | section[at + 4];
    streams.push({
      type: section[at],
      pid: ((section[at + 1] & 0x1f) << 8) | section[at + 2],
      bytes: [],
      params: null,
    });
    at += 5 + esInfo;
  }
  return streams;
}

/** A stream's parameters once its bytes hold them; null until then (or for a type not described). */
function parametersOf(stream: Elementary): string | null {
  const bytes = stream.bytes;
  // PES header: 6 bytes, 3 of flags, then its own header data.
  if (bytes.length < 9) return null;
  const data = 9 + bytes[8];
  if (stream.type === ADTS_AAC) {
    const at = data;
    if (bytes.length < at + 4 || bytes[at] !== 0xff || (bytes[at + 1] & 0xf6) !== 0xf0) return null;
    const profile = bytes[at + 2] >> 6;
    const rateIndex = (bytes[at + 2] >> 2) & 0xf;
    const channels = ((bytes[at + 2] & 0x1) << 2) | (bytes[at + 3] >> 6);
    return `aac/${profile}/${rateIndex}/${channels}`;
  }
  if (stream.type === H264) {
    const sps = firstNal(bytes, data, 7);
    return sps ? h264Parameters(sps) : null;
  }
  return null;
}

/** The first NAL unit of `type` after `from` (without its start code), once it is whole in `bytes`. */
function firstNal(bytes: number[], from: number, type: number): number[] | null {
  for (let i = from; i + 3 < bytes.length; i++) {
    if (bytes[i] !== 0 || bytes[i + 1] !== 0 || bytes[i + 2] !== 1 || (bytes[i + 3] & 0x1f) !== type) continue;
    for (let end = i + 4; end + 2 < bytes.length; end++)
      if (bytes[end] === 0 && bytes[end + 1] === 0 && bytes[end + 2] <= 1) return bytes.slice(i + 3, end);
    return null; // its end is in bytes still to come
  }
  return null;
}

/** Profile, chroma format, bit depths and the cropped frame size from an H.264 SPS (ITU-T H.264 7.3.2.1.1). */
function h264Parameters(nal: number[]): string | null {
  // Emulation prevention: 00 00 03 carries 00 00.
  const rbsp: number[] = [];
  for (let i = 1; i < nal.length; i++) {
    if (i >= 3 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    rbsp.push(nal[i]);
  }
  const bits = new BitReader(rbsp);
  try {
    const profile = bits.read(8);
    bits.read(16); // constraint flags and level
    bits.ue(); // seq_parameter_set_id
    let chroma = 1;
    let depths = '8/8';
    if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(profile)) {
      chroma = bits.ue();
      if (chroma === 3) bits.read(1);
      depths = `${bits.ue() + 8}/${bits.ue() + 8}`;
      bits.read(1);
      if (bits.read(1))
        for (let i = 0; i < (chroma === 3 ? 12 : 8); i++) if (bits.read(1)) bits.scalingList(i < 6 ? 16 : 64);
    }
    bits.ue(); // log2_max_frame_num_minus4
    const pocType = bits.ue();
    if (pocType === 0) bits.ue();
    else if (pocType === 1) {
      bits.read(1);
      bits.se();
      bits.se();
      const cycle = bits.ue();
      for (let i = 0; i < cycle; i++) bits.se();
    }
    bits.ue(); // max_num_ref_frames
    bits.read(1);
    const widthMbs = bits.ue() + 1;
    const heightUnits = bits.ue() + 1;
    const frameMbsOnly = bits.read(1);
    if (!frameMbsOnly) bits.read(1);
    bits.read(1);
    let [left, right, top, bottom] = [0, 0, 0, 0];
    if (bits.read(1)) [left, right, top, bottom] = [bits.ue(), bits.ue(), bits.ue(), bits.ue()];
    const cropX = chroma === 1 || chroma === 2 ? 2 : 1;
    const cropY = (chroma === 1 ? 2 : 1) * (2 - frameMbsOnly);
    const width = widthMbs * 16 - cropX * (left + right);
    const height = heightUnits * 16 * (2 - frameMbsOnly) - cropY * (top + bottom);
    return `h264/${profile}/${chroma}/${depths}/${width}x${height}`;
  } catch {
    return null; // an SPS cut short
  }
}

/** Reads bits most significant first, with the Exp-Golomb codes of H.264. */
class BitReader {
  private at = 0;

  constructor(private readonly bytes: number[]) {}

  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++, this.at++) {
      const byte = this.bytes[this.at >> 3];
      if (byte === undefined) throw new Error('SPS cut short');
      value = value * 2 + ((byte >> (7 - (this.at & 7))) & 1);
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.read(1) === 0) if (++zeros > 31) throw new Error('bad Exp-Golomb code');
    return 2 ** zeros - 1 + this.read(zeros);
  }

  se(): number {
    const code = this.ue();
    return code % 2 ? (code + 1) / 2 : -code / 2;
  }

  scalingList(size: number): void {
    let last = 8;
    let next = 8;
    for (let i = 0; i < size && next !== 0; i++) {
      next = (last + this.se() + 256) % 256;
      last = next === 0 ? last : next;
    }
  }
}
