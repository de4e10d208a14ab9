import { countOf } from '../../../contract/plural';
import { HttpResponse } from 'msw';
import {
  ACTIVE_INSTANCE_STATES,
  operatorWhoStopped,
  type DemoStreamResponse,
  type Instance,
  type InstanceDetails,
  type InstanceLogsResponse,
  type InstancesListResponse,
  type LaunchResponse,
  type Recording,
  type TerminateResponse,
  type TerminateResult,
} from '../../../contract/instances';
import { comingFriday } from '../../../contract/fridays';
import { ONE_OFF_JOB_PREFIX } from '../../../contract/scheduler';
import type { CostPeriod, InstanceCostResponse } from '../../../contract/instance-cost';
import type { ServerMessage } from '../../../contract/live';
import { instanceRoutes } from '../../../contract/routes/instances';
import { instancesPageOf, type InstancesPage } from '../../../contract/instance-list';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';
import { mockMosques } from './config';
import { mockLiveContentOf } from './recordings';
import { liveSocket } from './live';

/** The test broadcast the mocks offer in the launch dialog. */
export const MOCK_DEMO_STREAM_URL = 'http://127.0.0.1:8000/demo/stream.m3u8';

interface InstanceExtras {
  width: number;
  height: number;
  running_at: string | null;
  ended_at: string | null;
  state_reason: string | null;
  logs: string[];
}

interface FleetState {
  extras: Map<string, InstanceExtras>;
  nextId: number;
}

/* The fleet's extra state belongs to the store object, so resetStore() (which replaces it) resets it too. */
const fleets = new WeakMap<MockStore, FleetState>();

function fleet(): FleetState {
  let state = fleets.get(store);
  if (!state) {
    state = { extras: new Map(), nextId: 1 };
    fleets.set(store, state);
  }
  return state;
}

function extrasOf(id: string): InstanceExtras {
  const state = fleet();
  let extras = state.extras.get(id);
  if (!extras) {
    extras = { width: 1280, height: 720, running_at: null, ended_at: null, state_reason: null, logs: [] };
    state.extras.set(id, extras);
  }
  return extras;
}

/** An instance as the server lists it; tests pass only what matters to them. */
export function mockInstance(overrides: Partial<Instance> = {}): Instance {
  const n = fleet().nextId++;
  const id = overrides.id ?? `cap-mock${String(n).padStart(4, '0')}`;
  return {
    id,
    instance_id: id,
    name: `capture-adhoc-${id.slice(-6)}`,
    state: 'running',
    instance_type: 'local',
    runtime_hours: 0.25,
    mosque_id: null,
    launch_time: nowIso(),
    url: 'https://streams.example.com/live.m3u8',
    method: 'api',
    duration: 7200,
    recording_status: 'recording',
    ...overrides,
  };
}

/** Puts instances (and, optionally, their log lines) into the mock fleet. */
export function addMockInstances(...instances: Instance[]): Instance[] {
  store.instances.push(...instances);
  return instances;
}

export function setMockLogs(instanceId: string, logs: string[]): void {
  extrasOf(instanceId).logs = logs;
}

export function mockRecording(instance: Instance, overrides: Partial<Recording> = {}): Recording {
  const id = `rec-${instance.id.slice(4)}`;
  return {
    id,
    instance_id: instance.id,
    mosque_id: instance.mosque_id,
    url: instance.url,
    status: 'captured',
    started_at: instance.launch_time,
    ended_at: nowIso(),
    bytes: 1_572_864,
    duration_seconds: 42,
    file_name: `${instance.mosque_id ?? 'adhoc'}-20260105-093000.mp4`,
    reason: null,
    download_url: `/api/recordings/${id}/media?download=1`,
    expected_seconds: 42,
    covered_seconds: 42,
    gaps: [],
    reconnects: 0,
    stopped_by: operatorWhoStopped(overrides.reason ?? null),
    ...overrides,
  };
}

function broadcast(message: ServerMessage): void {
  liveSocket.broadcast(JSON.stringify(message));
}

function publishFleet(): void {
  broadcast({ type: 'instance_status_update', data: store.instances });
  broadcast({ type: 'recordings_update', data: store.recordings });
}

/** Runs `change` later unless the store was reset meanwhile (a test ended). */
function later(change: () => void): void {
  const owner = store;
  setTimeout(() => {
    if (store !== owner) return;
    change();
    publishFleet();
  }, owner.transitionMs);
}

function findInstance(id: string): Instance | undefined {
  return store.instances.find((instance) => instance.id === id || instance.instance_id === id);
}

function setState(instance: Instance, state: Instance['state'], reason?: string): void {
  instance.state = state;
  const extras = extrasOf(instance.id);
  const at = nowIso();
  extras.logs.push(`${at} state ${state}${reason ? ` (${reason})` : ''}`);
  if (state === 'running') extras.running_at = at;
  if (state === 'terminated' || state === 'stopped') {
    extras.ended_at = at;
    extras.state_reason = reason ?? null;
    const recording = store.recordings.find((r) => r.instance_id === instance.id);
    if (recording && recording.status === 'recording') {
      Object.assign(recording, { status: 'partial', ended_at: at, bytes: 1_048_576, duration_seconds: 30 });
    }
    instance.recording_status = recording?.status ?? null;
  }
}

function terminate(ids: string[], reason: string): TerminateResult[] {
  return ids.map((id) => {
    const instance = findInstance(id);
    if (!instance) return { instance_id: id, success: false, state: null, message: `Instance ${id} not found` };
    if (!(ACTIVE_INSTANCE_STATES as readonly string[]).includes(instance.state)) {
      return {
        instance_id: instance.id,
        success: false,
        state: instance.state,
        message: `Instance ${instance.id} is ${instance.state}`,
      };
    }
    setState(instance, 'stopping', reason);
    later(() => setState(instance, 'terminated', reason));
    return { instance_id: instance.id, success: true, state: 'stopping', message: 'Terminating' };
  });
}

function terminateBody(results: TerminateResult[], what: string): TerminateResponse {
  const terminated = results.filter((r) => r.success).length;
  const failed = results.length - terminated;
  const message =
    results.length === 0
      ? 'No running or pending instances'
      : `${what}: ${countOf(terminated, 'instance')} terminating${failed ? `, ${failed} failed` : ''}`;
  return { success: true, message, data: { results, terminated, failed } };
}

/** The mocks price every machine as a t3.medium: the store's instances are this Friday's and this month's. */
const MOCK_HOURLY_USD = 0.0416;

function mockCostPeriod(period: string, instances: Instance[]): CostPeriod {
  const hours = instances.reduce((sum, instance) => sum + instance.runtime_hours, 0);
  return {
    period,
    recordings: instances.length,
    instances: instances.length,
    instance_hours: hours,
    estimate_usd: Math.round(hours * MOCK_HOURLY_USD * 10_000) / 10_000,
    unpriced_types: [],
  };
}

export const instanceHandlers = [
  // Before the details' /api/instances/:id, which would take "cost" for an id.
  mock(instanceRoutes.cost, () => {
    const now = new Date(nowIso());
    const coming = comingFriday(now);
    const last = new Date(Date.parse(coming) - 7 * 86_400_000).toISOString().slice(0, 10);
    return HttpResponse.json<InstanceCostResponse>({
      success: true,
      data: {
        fridays: [mockCostPeriod(coming, store.instances), mockCostPeriod(last, [])],
        month: mockCostPeriod(now.toISOString().slice(0, 7), store.instances),
        hourly_prices: { 't3.medium': MOCK_HOURLY_USD },
        price_source: 'mock prices',
        volume_gb: 8,
        generated_at: now.toISOString(),
      },
    });
  }),

  mock(instanceRoutes.demoStream, () =>
    HttpResponse.json<DemoStreamResponse>({ success: true, data: { url: MOCK_DEMO_STREAM_URL } }),
  ),

  // docs/reference.md calls the list with its trailing slash; both spellings answer.
  ...[instanceRoutes.list, instanceRoutes.listWithoutSlash].map((declaration) =>
    mock(declaration, () => HttpResponse.json<InstancesListResponse>({ success: true, data: store.instances })),
  ),

  // Before the details' /api/instances/:id, which would take "page" for an id.
  mock(instanceRoutes.page, ({ query }) => {
    const names = new Map(mockMosques().map((mosque) => [mosque.mosque_id, mosque.name]));
    return HttpResponse.json<{ success: true; data: InstancesPage }>({
      success: true,
      data: instancesPageOf(store.instances, query, names),
    });
  }),

  mock(instanceRoutes.launch, ({ body }) => {
    // A start_at is scheduled (the mocks have no lead time: launched at its window's start), the rest launched now.
    const scheduled = body.configs.flatMap((config, index) =>
      config.start_at
        ? [
            {
              index,
              // The server's one-off job id: its prefix says it records no Friday.
              job_id: `${ONE_OFF_JOB_PREFIX}${index}-${Date.parse(config.start_at)}`,
              mosque_id: config.mosque_id,
              launch_at: config.start_at,
              window_start: config.start_at,
              window_end: new Date(Date.parse(config.start_at) + config.duration * 1000).toISOString(),
            },
          ]
        : [],
    );
    const launched = body.configs
      .filter((config) => !config.start_at)
      .map((config) => {
        const instance = mockInstance({
          state: 'pending',
          runtime_hours: 0,
          mosque_id: config.mosque_id,
          url: config.url,
          method: config.method,
          duration: config.duration,
          name: `capture-${config.mosque_id ?? 'adhoc'}-${String(fleet().nextId).padStart(6, '0')}`,
        });
        store.instances.unshift(instance);
        store.recordings.unshift(
          mockRecording(instance, { status: 'recording', ended_at: null, bytes: 0, duration_seconds: null }),
        );
        Object.assign(extrasOf(instance.id), { width: config.width, height: config.height });
        extrasOf(instance.id).logs.push(
          `${instance.launch_time} launching capture of ${config.url} for ${config.duration}s at ${config.width}x${config.height}`,
        );
        later(() => {
          if (instance.state === 'pending') setState(instance, 'running');
        });
        return instance;
      });
    publishFleet();
    const forLater = scheduled.length ? `; ${scheduled.length} scheduled for their start_at` : '';
    return HttpResponse.json<LaunchResponse>({
      success: true,
      message: `Launched ${countOf(launched.length, 'instance')}${forLater}`,
      data: { instances: launched, failed: [], scheduled },
    });
  }),

  mock(instanceRoutes.terminate, ({ body, user: actor }) => {
    const unknown = body.instance_ids.filter((id) => !findInstance(id));
    if (unknown.length > 0) return errorResponse(404, `Instance ${unknown.join(', ')} not found`);
    const active = body.instance_ids.filter((id) =>
      (ACTIVE_INSTANCE_STATES as readonly string[]).includes(findInstance(id)?.state ?? ''),
    );
    if (active.length === 0) return errorResponse(409, 'None of these instances is running or pending');
    const results = terminate(body.instance_ids, `Stopped by ${actor.username}`);
    publishFleet();
    return HttpResponse.json<TerminateResponse>(terminateBody(results, 'Terminate'));
  }),

  mock(instanceRoutes.terminateAll, ({ query, user: actor }) => {
    if (query.force !== 'true') {
      return errorResponse(400, 'Emergency stop needs force=true to confirm stopping every instance');
    }
    const ids = store.instances
      .filter((i) => (ACTIVE_INSTANCE_STATES as readonly string[]).includes(i.state))
      .map((i) => i.id);
    const results = terminate(ids, `Emergency stop by ${actor.username}`);
    publishFleet();
    return HttpResponse.json<TerminateResponse>(terminateBody(results, 'Emergency stop'));
  }),

  // The demo fleet never holds launches back, so there is no breaker to close: the answer is the server's.
  mock(instanceRoutes.closeLaunchBreaker, () =>
    HttpResponse.json({ success: true as const, message: 'Launch breaker closed: launches resume' }),
  ),

  mock(instanceRoutes.logs, ({ params, query }) => {
    const instance = findInstance(params.id);
    if (!instance) return errorResponse(404, `Instance ${params.id} not found`);
    return HttpResponse.json<InstanceLogsResponse>({
      success: true,
      data: { instance_id: instance.id, logs: extrasOf(instance.id).logs.slice(-query.lines), live: query.live },
    });
  }),

  mock(instanceRoutes.details, ({ params }) => {
    const instance = findInstance(params.id);
    if (!instance) return errorResponse(404, `Instance ${params.id} not found`);
    const { logs: _logs, ...extras } = extrasOf(instance.id);
    const recording = store.recordings.find((r) => r.instance_id === instance.id) ?? null;
    const details: InstanceDetails = {
      ...instance,
      ...extras,
      provider: 'local',
      provider_instance_id: `pid-${instance.id.slice(4)}`,
      job_id: null,
      image_id: null,
      recording,
      live_content: recording ? mockLiveContentOf(recording) : null,
    };
    return HttpResponse.json({ success: true, data: details });
  }),

  // Live log pushes: request_logs and subscribe_logs are answered at once with the instance's lines, as the server does.
  liveSocket.addEventListener('connection', ({ client }) => {
    client.addEventListener('message', (event) => {
      let message: { action?: string; instance_id?: string };
      try {
        message = JSON.parse(String(event.data)) as typeof message;
      } catch {
        return;
      }
      if ((message.action !== 'subscribe_logs' && message.action !== 'request_logs') || !message.instance_id) return;
      const instance = findInstance(message.instance_id);
      if (!instance) return;
      client.send(
        JSON.stringify({
          type: 'instance_logs',
          instance_id: message.instance_id,
          logs: extrasOf(instance.id).logs.slice(-100),
        }),
      );
    });
  }),
];
