import { describe, expect, it } from 'vitest';
import { InternalCalls } from '../../../server/modules/servers/internal-calls';
import { ManualClock } from '../../../testkit/manual-clock';

/** Calls between servers: signed with the shared key over target, method, path, body, time and a nonce. */
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
        caller.sign('srv-b', 'POST', '/internal/instances/terminate', body),
      ),
    ).toBe(true);
  });

  it('refuses another key, another path, another body, another method, and no signature', () => {
    const signature = caller.sign('srv-b', 'POST', '/internal/instances/terminate', body);
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
    expect(
      callee.verify(
        'POST',
        '/internal/instances/terminate',
        body,
        signature
          .split('.')
          .slice(0, -2)
          .concat(signature.split('.').at(-1) as string)
          .join('.'),
      ),
    ).toBe(false);
  });

  it('refuses a signature more than 30 s old', () => {
    const signature = caller.sign('srv-b', 'GET', '/internal/instances/cap-1/logs?lines=10');
    clock.advance(31_000);
    expect(callee.verify('GET', '/internal/instances/cap-1/logs?lines=10', '', signature)).toBe(false);
  });

  it('refuses a call replayed within the window, and one sent to another server than it was signed for', () => {
    const url = '/internal/instances/terminate';
    const signature = caller.sign('srv-b', 'POST', url, body);
    expect(callee.verify('POST', url, body, signature)).toBe(true);
    clock.advance(1000);
    expect(callee.verify('POST', url, body, signature)).toBe(false);
    // The same request signed anew (another nonce) passes: only the copy is refused.
    expect(callee.verify('POST', url, body, caller.sign('srv-b', 'POST', url, body))).toBe(true);
    const other = new InternalCalls(key, clock, 'srv-c');
    expect(other.verify('POST', url, body, caller.sign('srv-b', 'POST', url, body))).toBe(false);
    // A nonce is remembered as long as its signature could pass, then forgotten.
    const late = caller.sign('srv-b', 'GET', '/internal/instances/cap-1/logs?lines=10');
    expect(callee.verify('GET', '/internal/instances/cap-1/logs?lines=10', '', late)).toBe(true);
    clock.advance(29_000);
    expect(callee.verify('GET', '/internal/instances/cap-1/logs?lines=10', '', late)).toBe(false);
  });
});
