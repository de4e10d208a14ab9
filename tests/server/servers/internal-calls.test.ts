import { describe, expect, it } from 'vitest';
import { InternalCalls } from '../../../server/modules/servers/internal-calls';
import { ManualClock } from '../../../testkit/manual-clock';

/** Calls between servers: signed with the shared key over method, path, body and time. */
describe('internal call signatures', () => {
  const clock = new ManualClock('2026-11-27T10:00:00Z');
  const key = Buffer.alloc(32, 7);
  const caller = new InternalCalls(key, clock, 'srv-a');
  const callee = new InternalCalls(key, clock, 'srv-b');
  const body = JSON.stringify({ instance_ids: ['cap-1'], reason: 'Stopped by admin' });

  it('accepts a fresh signature of the very request', () => {
    expect(
      callee.verify(
        'POST',
        '/internal/instances/terminate',
        body,
        caller.sign('POST', '/internal/instances/terminate', body),
      ),
    ).toBe(true);
  });

  it('refuses another key, another path, another body, another method, and no signature', () => {
    const signature = caller.sign('POST', '/internal/instances/terminate', body);
    expect(
      new InternalCalls(Buffer.alloc(32, 8), clock, 'srv-x').verify(
        'POST',
        '/internal/instances/terminate',
        body,
        signature,
      ),
    ).toBe(false);
    expect(callee.verify('POST', '/internal/instances/terminate?x=1', body, signature)).toBe(false);
    expect(callee.verify('POST', '/internal/instances/terminate', body.replace('cap-1', 'cap-2'), signature)).toBe(
      false,
    );
    expect(callee.verify('GET', '/internal/instances/terminate', body, signature)).toBe(false);
    expect(callee.verify('POST', '/internal/instances/terminate', body, undefined)).toBe(false);
    expect(callee.verify('POST', '/internal/instances/terminate', body, 'srv-a.notanumber.abc')).toBe(false);
  });

  it('refuses a signature replayed more than 30 s later', () => {
    const signature = caller.sign('GET', '/internal/instances/cap-1/logs?lines=10');
    clock.advance(29_000);
    expect(callee.verify('GET', '/internal/instances/cap-1/logs?lines=10', '', signature)).toBe(true);
    clock.advance(2000);
    expect(callee.verify('GET', '/internal/instances/cap-1/logs?lines=10', '', signature)).toBe(false);
  });
});
