import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMeter } from './request-meter.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const NAMES = {
  requestsName: 'callboard_http_requests_total',
  requestsHelp: 'HTTP requests answered',
  durationName: 'callboard_http_request_duration_seconds',
  durationHelp: 'Time to answer an HTTP request',
};

/** What prom-client writes for the same requests: the reference the meter replaces. */
const promClientText = async (requests: readonly (readonly [string, string, number, number])[]) => {
  const registry = new Registry();
  const count = new Counter({
    name: NAMES.requestsName,
    help: NAMES.requestsHelp,
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const time = new Histogram({
    name: NAMES.durationName,
    help: NAMES.durationHelp,
    labelNames: ['method', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  for (const [method, route, status, seconds] of requests) {
    count.labels(method, route, String(status)).inc();
    time.labels(method, route).observe(seconds);
  }
  return registry.metrics();
};

/** Each family's lines, header first, samples in order of name and labels (neither writer promises an order of series). */
const families = (text: string) =>
  text
    .trim()
    .split('\n\n')
    .map((family) => {
      const [help, type, ...samples] = family.split('\n');
      return [help, type, ...samples.sort()];
    });

describe('the request meter', () => {
  it('writes what prom-client writes for the same requests', async () => {
    const requests = [
      ['GET', '/v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls', 304, 0.0002],
      ['GET', '/v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls', 200, 0.004],
      ['GET', '/v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls', 304, 0.001],
      ['POST', '/v1/accounts/:accountID/applications/:applicationID/providers/:providerID/calls', 201, 0.03],
      ['GET', '/v1/me', 200, 3.5],
      ['GET', 'unmatched', 404, 0.0025],
      ['GET', 'a "quoted" \\ route\nwith a newline', 400, 0.1],
    ] as const;
    const meter = new RequestMeter({ ...NAMES, buckets: BUCKETS });
    for (const [method, route, status, seconds] of requests) meter.record(method, route, status, seconds);
    expect(families(meter.exposition().join('\n\n'))).toEqual(families(await promClientText(requests)));
  });

  it('writes both families with no sample before the first request', async () => {
    const meter = new RequestMeter({ ...NAMES, buckets: BUCKETS });
    expect(meter.exposition()).toEqual([
      '# HELP callboard_http_requests_total HTTP requests answered\n# TYPE callboard_http_requests_total counter',
      '# HELP callboard_http_request_duration_seconds Time to answer an HTTP request\n# TYPE callboard_http_request_duration_seconds histogram',
    ]);
    expect(families(meter.exposition().join('\n\n'))).toEqual(families(await promClientText([])));
  });

  it("counts a request on a bound in that bound's bucket, as Prometheus does (le: less or equal)", () => {
    const meter = new RequestMeter({ ...NAMES, buckets: [0.1, 1] });
    meter.record('GET', '/x', 200, 0.1);
    meter.record('GET', '/x', 200, 1.5);
    const text = meter.exposition()[1] ?? '';
    expect(text).toContain('callboard_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/x"} 1');
    expect(text).toContain('callboard_http_request_duration_seconds_bucket{le="1",method="GET",route="/x"} 1');
    expect(text).toContain('callboard_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/x"} 2');
    expect(text).toContain('callboard_http_request_duration_seconds_count{method="GET",route="/x"} 2');
  });

  it('counts a request whose duration is not a number without spoiling the latency', () => {
    const meter = new RequestMeter({ ...NAMES, buckets: [0.1, 1] });
    meter.record('GET', '/x', 200, 0.05);
    meter.record('GET', '/x', 200, Number.NaN);
    meter.record('GET', '/x', 500, Number.POSITIVE_INFINITY);
    const [requests = '', duration = ''] = meter.exposition();
    expect(requests).toContain('callboard_http_requests_total{method="GET",route="/x",status="200"} 2');
    expect(requests).toContain('callboard_http_requests_total{method="GET",route="/x",status="500"} 1');
    expect(duration).toContain('callboard_http_request_duration_seconds_sum{method="GET",route="/x"} 0.05');
    expect(duration).toContain('callboard_http_request_duration_seconds_count{method="GET",route="/x"} 1');
    expect(duration).toContain('callboard_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/x"} 1');
  });

  it('refuses buckets that are empty, out of order or not finite', () => {
    for (const buckets of [[], [1, 0.5], [0.1, 0.1], [0.1, Infinity]])
      expect(() => new RequestMeter({ ...NAMES, buckets }), String(buckets)).toThrow('ascending');
  });
});
