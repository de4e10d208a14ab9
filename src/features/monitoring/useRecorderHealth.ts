import { useCallback, useEffect, useState } from 'react';
import type { Instance, Recording } from '../../../contract/instances';
import { useLive } from '../../live/context';
import { recorderHealth, trackProgress, type ProgressMark, type RecorderHealth } from '../../lib/recorder-health';

/** How often the chips are re-derived between live updates (a stall shows without new messages). */
export const HEALTH_TICK_MS = 5000;

/**
 * The health of each instance's recorder, from the live feed: each recordings update renews the progress
 * marks; a timer re-derives the chips so a recording that stops growing turns Stalled on its own.
 */
export function useRecorderHealth(): (instance: Instance) => RecorderHealth {
  const { recordings, subscribe } = useLive();
  const [marks, setMarks] = useState<Map<string, ProgressMark>>(() => trackProgress(new Map(), recordings, Date.now()));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const update = (list: Recording[]) => setMarks((previous) => trackProgress(previous, list, Date.now()));
    const offRecordings = subscribe('recordings_update', (message) => update(message.data));
    const offInitial = subscribe('initial_data', (message) => update(message.data.recordings));
    const timer = setInterval(() => setNow(Date.now()), HEALTH_TICK_MS);
    return () => {
      offRecordings();
      offInitial();
      clearInterval(timer);
    };
  }, [subscribe]);

  return useCallback(
    (instance: Instance) => {
      const recording = recordings.find((candidate) => candidate.instance_id === instance.id);
      return recorderHealth(instance, recording, recording ? marks.get(recording.id) : undefined, now);
    },
    [recordings, marks, now],
  );
}
