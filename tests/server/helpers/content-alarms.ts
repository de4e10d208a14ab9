import type { Alarm, AlarmKind } from '../../../contract/alarms';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import type { PlannedMosque } from '../../../testkit/scheduler-doubles';
import { SchedulerEnv } from '../scheduler/helpers';

/*
 * What the end-to-end tests of content alarms share, whether their recorders run locally or on a
 * cloud machine: the threshold they run with, the fault the programme carries, and how an alarm tells
 * how long its condition had lasted.
 */

/** CONTENT_ALARM_SECONDS, scaled down from 120 s: a condition lasting this long is alarmed. */
export const TEST_CONTENT_ALARM_SECONDS = 8;
/** The fault runs from 12 s to 36 s of a 64 s programme: 24 s, three times the threshold. */
export const TEST_CONTENT_FAULT = { from: 12, to: 36, seconds: 64 } as const;
/**
 * How far past its start or its threshold a condition may have lasted when the recorder first tells
 * of it: at its next check (every second, recorder.ts), reading under load a few one-second segments
 * at once (up to 4 s of media).
 */
export const TOLD_WITHIN_SECONDS = 1 + 4;

/** The alarm of `kind` about `mosque`, open or resolved. */
export async function contentAlarmOf(
  alarms: { list(status: 'all', limit: number): Promise<Alarm[]> },
  mosque: string,
  kind: AlarmKind,
): Promise<Alarm | undefined> {
  return (await alarms.list('all', 500)).find((alarm) => alarm.mosque_id === mosque && alarm.kind === kind);
}

/** How long the condition had lasted when its alarm was raised, as its message says ("... for 9 s (since 12:00:01 UTC)"). */
export function lastedSeconds(alarm: Alarm): number {
  return Number(/ for (\d+) s \(since \d\d:\d\d:\d\d UTC\)$/.exec(alarm.message)?.[1]);
}

/**
 * A server on the aws driver against moto, its recordings in `bucket` (below `captures/`), alarming
 * content conditions after TEST_CONTENT_ALARM_SECONDS: what the tests of cloud recordings' live
 * reports share. `dispose` ends the server, then moto.
 */
export async function awsContentEnv(
  bucket: string,
  options: { start?: string; mosques: PlannedMosque[] },
): Promise<{ account: MotoAccount; env: SchedulerEnv; dispose(): Promise<void> }> {
  const account = await startMotoAccount(bucket);
  const env = await SchedulerEnv.create({
    start: options.start ?? new Date().toISOString(),
    mosques: options.mosques,
    env: {
      CAPTURE_PROVIDER: 'aws',
      AWS_ENDPOINT_URL: account.moto.url,
      AWS_REGION: 'us-east-1',
      AWS_IMAGE_ID: account.imageId,
      AWS_INSTANCE_TYPE: 't3.small',
      RECORDINGS_STORE: `s3://${bucket}/captures`,
      S3_ENDPOINT: account.moto.url,
      CONTENT_ALARM_SECONDS: String(TEST_CONTENT_ALARM_SECONDS),
    },
  });
  return {
    account,
    env,
    dispose: async () => {
      await env.dispose();
      await account.stop();
    },
  };
}
