import { z } from 'zod';
import { recordingGapSchema } from '../../../contract/instances';
import type { RecordingStore } from '../../storage/recording-store';
import { contentSummarySchema } from '../content-schema';
import type { ProviderRecording } from '../provider';

/*
 * The result an EC2 recorder leaves in the store: metadata.json beside its joined file (written by
 * recorder/recorder-handover.ts at window end, before the machine powers off). Read from there
 * rather than from the instance's console output, which EC2 buffers, delivers minutes late or cuts
 * short, and which an emulator (moto) does not have at all.
 */

/** What a recorder's media covers of its window (recorder/protocol.ts Coverage), as it writes it to the store. */
export const coverageSchema = z.object({
  expectedSeconds: z.number().nonnegative(),
  coveredSeconds: z.number().nonnegative(),
  gaps: z.array(recordingGapSchema),
  reconnects: z.number().int().nonnegative(),
});

/** The parts of metadata.json the server judges a recording by; anything else in it is ignored. */
const storedResultSchema = z.object({
  outcome: z.object({
    status: z.enum(['captured', 'partial', 'failed']),
    reason: z.string().nullable(),
    endedBy: z.string(),
  }),
  coverage: coverageSchema,
  media: z.object({ name: z.string(), bytes: z.number().int().nonnegative() }).nullable(),
  segments: z.array(z.object({ name: z.string(), seconds: z.number().nonnegative() })),
  windowEnd: z.iso.datetime({ offset: true }),
  /** Absent in a result written before recorders kept it: then the window's end, or when it was written. */
  measuredUntil: z.iso.datetime({ offset: true }).optional(),
  /** What the recorder measured of the content; absent in a result written before recorders measured it. */
  content: contentSummarySchema.nullable().optional(),
});

/**
 * The outcome of the machine launched at `launchedAt` for the recording whose joined file is
 * `mediaKey`, from the metadata.json beside it; undefined when there is none written since that
 * launch (the machine died before its window ended: an earlier machine's result is not this one's).
 * A metadata.json that is not one throws, with what is wrong.
 */
export async function storedResult(
  store: RecordingStore,
  mediaKey: string,
  launchedAt: Date,
): Promise<ProviderRecording | undefined> {
  const key = `${mediaKey.slice(0, mediaKey.lastIndexOf('/') + 1)}metadata.json`;
  const [object] = (await store.list(key)).filter((o) => o.key === key);
  const writtenAt = Date.parse(object?.modifiedAt ?? '');
  if (!object || !(writtenAt >= launchedAt.getTime())) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of await store.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  const parsed = storedResultSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  if (!parsed.success) throw new Error(`${key} is not a recorder's result: ${z.prettifyError(parsed.error)}`);
  const { outcome, coverage, media, segments, windowEnd, measuredUntil, content } = parsed.data;
  return {
    status: outcome.status,
    bytes: media?.bytes ?? 0,
    mediaSeconds: segments.reduce((sum, segment) => sum + segment.seconds, 0),
    filePath: null,
    reason: outcome.reason,
    expectedSeconds: coverage.expectedSeconds,
    coveredSeconds: coverage.coveredSeconds,
    gaps: coverage.gaps,
    reconnects: coverage.reconnects,
    measuredUntil: measuredUntil ?? new Date(Math.min(Date.parse(windowEnd), writtenAt)).toISOString(),
    stoppedByOperator: outcome.endedBy === 'operator',
    content: content ?? null,
  };
}
