/** The scheduler's alarm causes, one key per cause (see contract/alarms.ts for the kinds). */
export const alarmKeys = {
  launchFailed: (jobId: string) => `launch_failed:${jobId}`,
  missed: (jobId: string) => `missed:${jobId}`,
  unschedulablePrefix: 'unschedulable:',
  unschedulable: (mosqueId: string) => `unschedulable:${mosqueId}`,
  /** The stream check is per job; the provider and disk checks are one cause each. */
  preflight: (jobId: string, check: 'stream') => `preflight:${jobId}:${check}`,
  preflightProvider: 'preflight:provider',
  preflightDisk: 'preflight:disk',
  noRecording: (jobId: string) => `capture_failed:job:${jobId}`,
};
