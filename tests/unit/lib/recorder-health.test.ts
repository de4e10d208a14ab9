import { describe, expect, it } from 'vitest';
import type { Instance, Recording } from '../../../contract/instances';
import { recorderHealth, STALL_AFTER_MS, trackProgress, type ProgressMark } from '../../../src/lib/recorder-health';

const T0 = Date.parse('2026-11-27T11:00:00.000Z');

const instance = (state: Instance['state'], recording_status: Instance['recording_status'] = null) => ({
  state,
  recording_status,
});
const recording = (status: Recording['status'], reason: string | null = null) => ({ status, reason });
const rec = (id: string, bytes: number, seconds: number | null, status: Recording['status'] = 'recording') => ({
  id,
  status,
  bytes,
  duration_seconds: seconds,
});

describe('trackProgress', () => {
  it('marks a recording when first seen and keeps the mark while nothing moves', () => {
    const first = trackProgress(new Map(), [rec('r1', 1000, 2)], T0);
    expect(first.get('r1')).toEqual({ bytes: 1000, seconds: 2, changedAt: T0, progressed: true });
    const second = trackProgress(first, [rec('r1', 1000, 2)], T0 + 10_000);
    expect(second.get('r1')?.changedAt).toBe(T0);
  });

  it('renews the mark when the size or the media time moves', () => {
    const first = trackProgress(new Map(), [rec('r1', 1000, 2)], T0);
    expect(trackProgress(first, [rec('r1', 2000, 2)], T0 + 5000).get('r1')?.changedAt).toBe(T0 + 5000);
    expect(trackProgress(first, [rec('r1', 1000, 7)], T0 + 5000).get('r1')?.changedAt).toBe(T0 + 5000);
  });

  it('notes that media never flowed for a recording that reports no progress (aws driver)', () => {
    const marks = trackProgress(new Map(), [rec('r1', 0, null)], T0);
    expect(marks.get('r1')?.progressed).toBe(false);
    expect(trackProgress(marks, [rec('r1', 10, null)], T0 + 1).get('r1')?.progressed).toBe(true);
  });

  it('drops recordings that are no longer recording', () => {
    const first = trackProgress(new Map(), [rec('r1', 1000, 2), rec('r2', 5, 1)], T0);
    const next = trackProgress(first, [rec('r1', 1000, 2, 'captured'), rec('r2', 6, 1)], T0 + 1);
    expect([...next.keys()]).toEqual(['r2']);
  });
});

describe('recorderHealth', () => {
  const mark = (changedAt: number, progressed = true): ProgressMark => ({
    bytes: 100,
    seconds: 1,
    changedAt,
    progressed,
  });

  it('is Healthy while a running recorder makes progress', () => {
    const health = recorderHealth(instance('running', 'recording'), recording('recording'), mark(T0), T0 + 5000);
    expect(health).toMatchObject({ kind: 'healthy', label: 'Healthy', color: 'success' });
  });

  it('turns Stalled when a running recording has not grown for longer than the stall time', () => {
    const at = T0 + STALL_AFTER_MS + 1000;
    const health = recorderHealth(instance('running', 'recording'), recording('recording'), mark(T0), at);
    expect(health).toMatchObject({ kind: 'stalled', label: 'Stalled', color: 'warning' });
    expect(health.detail).toBe('No media progress for 21 s');
    // exactly at the limit it is still healthy
    expect(
      recorderHealth(instance('running', 'recording'), recording('recording'), mark(T0), T0 + STALL_AFTER_MS).kind,
    ).toBe('healthy');
  });

  it('never calls a recorder stalled whose driver reports no progress at all', () => {
    const health = recorderHealth(
      instance('running', 'recording'),
      recording('recording'),
      mark(T0, false),
      T0 + 10 * STALL_AFTER_MS,
    );
    expect(health.kind).toBe('healthy');
  });

  it("is Stalled when the server's watchdog ended the capture for lack of media", () => {
    const stalled = recorderHealth(
      instance('terminated', 'partial'),
      recording('partial', 'No media for 60 s: the stream stalled'),
      undefined,
      T0,
    );
    expect(stalled).toMatchObject({
      kind: 'stalled',
      label: 'Stalled',
      detail: 'No media for 60 s: the stream stalled',
    });
    const never = recorderHealth(
      instance('terminated', 'failed'),
      recording('partial', 'No media received within 60 s'),
      undefined,
      T0,
    );
    expect(never.kind).toBe('stalled');
  });

  it('is Failed when the capture failed, with the reason', () => {
    const health = recorderHealth(
      instance('terminated', 'failed'),
      recording('failed', 'Connection refused'),
      undefined,
      T0,
    );
    expect(health).toMatchObject({ kind: 'failed', label: 'Failed', color: 'error', detail: 'Connection refused' });
  });

  it("reads the instance's recording_status when the live feed carries no recording", () => {
    expect(recorderHealth(instance('terminated', 'failed'), undefined, undefined, T0).kind).toBe('failed');
    expect(recorderHealth(instance('stopped', 'captured'), undefined, undefined, T0).kind).toBe('captured');
    expect(recorderHealth(instance('running', 'recording'), undefined, undefined, T0).kind).toBe('healthy');
  });

  it('is Partial for a capture cut short for another reason', () => {
    expect(recorderHealth(instance('terminated'), recording('partial', 'Terminated'), undefined, T0)).toMatchObject({
      kind: 'partial',
      color: 'warning',
    });
  });

  it('follows the instance state while no media verdict exists', () => {
    expect(recorderHealth(instance('pending', 'recording'), recording('recording'), undefined, T0)).toMatchObject({
      kind: 'starting',
      label: 'Starting',
    });
    expect(recorderHealth(instance('stopping', 'recording'), recording('recording'), undefined, T0).kind).toBe(
      'stopping',
    );
    expect(recorderHealth(instance('terminated'), undefined, undefined, T0)).toMatchObject({
      kind: 'stopped',
      label: 'Stopped',
      color: 'default',
    });
    expect(recorderHealth(instance('running'), undefined, undefined, T0)).toMatchObject({
      kind: 'unknown',
      label: 'Unknown',
    });
  });
});
