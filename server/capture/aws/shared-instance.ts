import type { Instance as Ec2Instance } from '@aws-sdk/client-ec2';

/*
 * Several recordings on one EC2 instance (RECORDINGS_PER_INSTANCE > 1). The instance is launched for
 * the first recording; each next recording whose window opens within SHARE_WINDOW_MS of the first's
 * takes the next place while the instance still accepts joins: its script is put in the store under
 * the instance's folder (a conditional write, so two servers never take one place) and the instance is
 * tagged with the place. The instance fetches each place's script as it appears, runs every recorder
 * side by side (each with its own folder, prefix and metadata.json, so each its own outcome), and
 * powers off once the last one has ended.
 */

/** Recordings whose windows open this close together share an instance. */
export const SHARE_WINDOW_MS = 10 * 60_000;
/** A place is not offered this close to the end of joining: the instance looks for new places every 10 s. */
export const JOIN_MARGIN_MS = 60_000;
/** EC2 allows 50 tags per instance: 13 are the instance's own, one per place. */
export const MAX_RECORDINGS_PER_INSTANCE = 20;

export const SHARED_TAG = {
  slots: 'capture-slots',
  joinUntil: 'capture-join-until',
  windowStart: 'capture-window-start',
  slot: (slot: number) => `capture-slot-${slot}`,
  stop: (slot: number) => `capture-stop-${slot}`,
} as const;

/** One recording's place on a shared instance, as its tag keeps it. */
export interface SlotTag {
  slot: number;
  /** The launch's idempotency key: a retried launch finds its place. */
  key: string;
  launchId: string;
  recordingId: string;
  windowEnd: Date;
  /** The joined file's key in the store; its metadata.json beside it is the recording's result. */
  file: string;
}

/** Ids and keys are path-safe (no spaces): the tag is its fields separated by spaces. */
export function slotTagValue(slot: Omit<SlotTag, 'slot'>): string {
  const value = [slot.key, slot.launchId, slot.recordingId, String(slot.windowEnd.getTime()), slot.file].join(' ');
  if (value.length > 256) throw new Error(`The recording's place tag is ${value.length} characters, over EC2's 256`);
  return value;
}

export function slotsOf(tags: Record<string, string>): SlotTag[] {
  const slots: SlotTag[] = [];
  for (let slot = 1; slot <= Number(tags[SHARED_TAG.slots] ?? 0); slot++) {
    const [key, launchId, recordingId, windowEnd, file] = (tags[SHARED_TAG.slot(slot)] ?? '').split(' ');
    if (file) slots.push({ slot, key, launchId, recordingId, windowEnd: new Date(Number(windowEnd)), file });
  }
  return slots;
}

/** Where a shared instance's places live in the store: folder named by the launch of its first recording. */
export const placeKeys = (firstLaunchId: string, slot: number) => ({
  script: `instances/${firstLaunchId}/slot-${slot}.sh`,
  stop: `instances/${firstLaunchId}/slot-${slot}.stop`,
});

/** Until when a new shared instance takes recordings: 10 minutes after its first window opens (or after its launch, for a window already open). */
export const joinUntilFor = (windowStart: Date, now: Date) =>
  new Date(Math.max(windowStart.getTime(), now.getTime()) + SHARE_WINDOW_MS);

/** A live shared instance this recording may join (its window opening close to the first's, places left, joining open), with the next place. */
export function placeFor(
  instance: Ec2Instance,
  tags: Record<string, string>,
  wanted: { windowStart: Date; imageId: string; now: Date },
): number | undefined {
  const capacity = Number(tags[SHARED_TAG.slots] ?? 0);
  const live = instance.State?.Name === 'pending' || instance.State?.Name === 'running';
  if (!live || capacity < 2 || instance.ImageId !== wanted.imageId) return undefined;
  if (Date.parse(tags[SHARED_TAG.joinUntil] ?? '') - wanted.now.getTime() < JOIN_MARGIN_MS) return undefined;
  if (Math.abs(Date.parse(tags[SHARED_TAG.windowStart] ?? '') - wanted.windowStart.getTime()) > SHARE_WINDOW_MS)
    return undefined;
  const taken = slotsOf(tags).length;
  return taken < capacity ? taken + 1 : undefined;
}
