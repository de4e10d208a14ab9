import { Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from '../../../server/modules/monitoring/request-durations';

describe('request-duration histogram', () => {
  it('counts each duration in the first bucket whose bound holds it, cumulatively and per label set, in the text format', async () => {
    const durations = new RequestDurations(
      'http_request_duration_seconds',
      'Duration of /api requests',
      [0.005, 0.01, 1],
    );
    const ok = durations.observer({ method: 'GET', route: '/api/x', status_code: '200' });
    for (const seconds of [0.005, 0.0051, 0.002, 20]) ok(seconds);
    const getSum = 0.005 + 0.0051 + 0.002 + 20 + 0.01;
    durations.observer({ method: 'POST', route: '/api/x', status_code: '400' })(0.5);
    // The same label set later is the same series.
    durations.observer({ method: 'GET', route: '/api/x', status_code: '200' })(0.01);
    const registry = new Registry();
    registry.registerMetric(durations as unknown as Metric);
    const text = await registry.metrics();
    const get = 'method="GET",route="/api/x",status_code="200"';
    const post = 'method="POST",route="/api/x",status_code="400"';
    expect(text).toBe(
      [
        '# HELP http_request_duration_seconds Duration of /api requests',
        '# TYPE http_request_duration_seconds histogram',
        `http_request_duration_seconds_bucket{le="0.005",${get}} 2`,
        `http_request_duration_seconds_bucket{le="0.01",${get}} 4`,
        `http_request_duration_seconds_bucket{le="1",${get}} 4`,
        `http_request_duration_seconds_bucket{le="+Inf",${get}} 5`,
        `http_request_duration_seconds_sum{${get}} ${getSum}`,
        `http_request_duration_seconds_count{${get}} 5`,
        `http_request_duration_seconds_bucket{le="0.005",${post}} 0`,
        `http_request_duration_seconds_bucket{le="0.01",${post}} 0`,
        `http_request_duration_seconds_bucket{le="1",${post}} 1`,
        `http_request_duration_seconds_bucket{le="+Inf",${post}} 1`,
        `http_request_duration_seconds_sum{${post}} 0.5`,
        `http_request_duration_seconds_count{${post}} 1`,
        '',
      ].join('\n'),
    );
  });
});
