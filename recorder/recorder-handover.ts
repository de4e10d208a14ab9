/*
 * The end of a capture that delivers to an object store: the joined file and the recording's metadata
 * (window, outcome, coverage, gaps, the segments that reached the store) go under its key prefix.
 * Part of the recorder runtime: Node and its siblings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readWindows } from './content-meter';
import { contentFileOf, type ContentSummary, type RecordingContent } from './protocol';
import type { StoreShipper } from './recorder-delivery';
import type { PieceStore } from './recorder-pieces';
import { writeJsonAtomic, type Coverage, type RecorderConfig, type RecorderOutcome } from './recorder-state';

/** How long the recorder keeps trying to deliver at window end (the server kills a stopped recorder after 5 min). */
export const FINAL_DELIVERY_MS = 4 * 60_000;

/** Ships the joined file; the reason it could not, or null. The local copy goes once it is in the store. */
export async function deliverJoinedFile(shipper: StoreShipper, config: RecorderConfig): Promise<string | null> {
  if (!fs.existsSync(config.outputPath) || fs.statSync(config.outputPath).size === 0) return null;
  const error = await shipper.deliver(
    config.outputPath,
    path.basename(config.outputPath),
    'video/mp4',
    Date.now() + FINAL_DELIVERY_MS,
  );
  return error ? `The joined recording did not reach the store: ${error}` : null;
}

/** Removes the local joined file once it is in the store; its size (0 when there was none). */
export function releaseLocalCopy(file: string): number {
  try {
    const size = fs.statSync(file).size;
    fs.rmSync(file, { force: true });
    return size;
  } catch {
    return 0;
  }
}

export interface RecordingMetadata {
  recordingId: string | null;
  instanceId: string;
  mosqueId: string | null;
  windowStart: string;
  windowEnd: string;
  outcome: RecorderOutcome;
  coverage: Coverage;
  /** Where the coverage is measured up to (the server's clock): the window's end, or the stop. */
  measuredUntil: string;
  /** The joined file, when it reached the store. */
  media: { name: string; bytes: number } | null;
  segments: { name: string; seconds: number }[];
  /** What the recorder measured of the content (absent: it did not measure). */
  content?: ContentSummary | null;
}

/** Writes metadata.json beside the state and ships it; the reason it could not, or null. */
export async function deliverMetadata(
  shipper: StoreShipper,
  dir: string,
  config: RecorderConfig,
  result: {
    outcome: RecorderOutcome;
    coverage: Coverage;
    measuredUntil: string;
    mediaBytes: number;
    pieces: PieceStore;
    content: ContentSummary | null;
  },
): Promise<string | null> {
  const metadata: RecordingMetadata = {
    recordingId: config.recordingId,
    instanceId: config.instanceId,
    mosqueId: config.mosqueId,
    windowStart: config.windowStart,
    windowEnd: config.windowEnd,
    outcome: result.outcome,
    coverage: result.coverage,
    measuredUntil: result.measuredUntil,
    media: result.mediaBytes > 0 ? { name: path.basename(config.outputPath), bytes: result.mediaBytes } : null,
    segments: result.pieces.measured().map(({ name, seconds }) => ({ name: shipper.segmentName(name), seconds })),
    content: result.content,
  };
  const file = path.join(dir, 'metadata.json');
  writeJsonAtomic(file, metadata);
  return shipper.deliver(file, 'metadata.json', 'application/json', Date.now() + FINAL_DELIVERY_MS);
}

/**
 * Keeps the recording's content (its summary and the 10 s windows of content.jsonl) beside its media
 * for the recording's page: shipped to the store by a recorder that delivers, else written beside the
 * joined file in the local store. The reason it could not, or null.
 */
export async function keepContent(
  shipper: StoreShipper | null,
  dir: string,
  config: RecorderConfig,
  summary: ContentSummary,
  windowsFile: string,
): Promise<string | null> {
  const content: RecordingContent = { summary, windows: readWindows(windowsFile) };
  const name = contentFileOf(path.basename(config.outputPath));
  try {
    if (!shipper) {
      writeJsonAtomic(contentFileOf(config.outputPath), content);
      return null;
    }
    const file = path.join(dir, name);
    writeJsonAtomic(file, content);
    const error = await shipper.deliver(file, name, 'application/json', Date.now() + FINAL_DELIVERY_MS);
    return error ? `The content readings did not reach the store: ${error}` : null;
  } catch (error) {
    return `could not keep the content readings: ${(error as Error).message}`;
  }
}
