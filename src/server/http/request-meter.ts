/**
 * The count and latency of HTTP requests, kept as plain numbers and written in Prometheus's text
 * format when scraped.
 *
 * prom-client's Counter and Histogram check and hash their labels on every `inc` and `observe`,
 * even through a child fetched once. A service answering tens of thousands of conditional lists a
 * second spent a tenth of its time there. Here a request costs two Map lookups on strings the
 * framework already holds (route and method), one on the status, a bucket search and a few
 * additions. The text written is the one prom-client writes for the same requests (a test holds
 * the two side by side), in the classic text format (`Registry.PROMETHEUS_CONTENT_TYPE`), not OpenMetrics.
 */

export interface RequestMeterOptions {
  requestsName: string;
  requestsHelp: string;
  durationName: string;
  durationHelp: string;
  /** Upper bounds of the latency buckets in seconds, ascending; `+Inf` is added. */
  buckets: readonly number[];
}

/** One method on one route: its latency histogram and its count per status. */
interface Series {
  /** Requests per bucket, not cumulative; the last one is above every bound. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
  readonly statuses: Map<number, number>;
}

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
/** As prom-client writes a sample's value. */
const sampleValue = (value: number) =>
  Number.isNaN(value) ? 'Nan' : Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : '-Inf';

export class RequestMeter {
  private readonly routes = new Map<string, Map<string, Series>>();

  constructor(private readonly options: RequestMeterOptions) {
    const { buckets } = options;
    if (buckets.length === 0 || buckets.some((bound, i) => !Number.isFinite(bound) || (i > 0 && bound <= (buckets[i - 1] ?? 0))))
      throw new Error('a request meter needs finite latency buckets in ascending order');
  }

  /** Counts one answered request; a duration that is not a finite number is left out of the latency, which it would spoil for good. */
  record(method: string, route: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (!methods) {
      methods = new Map();
      this.routes.set(route, methods);
    }
    let series = methods.get(method);
    if (!series) {
      series = { buckets: new Float64Array(this.options.buckets.length + 1), sum: 0, count: 0, statuses: new Map() };
      methods.set(method, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    if (!Number.isFinite(seconds)) return;
    const { buckets } = this.options;
    let bucket = 0;
    while (bucket < buckets.length && seconds > (buckets[bucket] as number)) bucket += 1;
    series.buckets[bucket] = (series.buckets[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The two metric families in Prometheus's text format, each as `Registry.metrics()` writes one, without a trailing newline. */
  exposition(): string[] {
    const { requestsName, requestsHelp, durationName, durationHelp, buckets } = this.options;
    const requests = [`# HELP ${requestsName} ${escapeHelp(requestsHelp)}`, `# TYPE ${requestsName} counter`];
    const duration = [`# HELP ${durationName} ${escapeHelp(durationHelp)}`, `# TYPE ${durationName} histogram`];
    for (const [route, methods] of this.routes)
      for (const [method, series] of methods) {
        const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}"`;
        for (const [status, count] of series.statuses)
          requests.push(`${requestsName}{${labels},status="${status}"} ${sampleValue(count)}`);
        let below = 0;
        series.buckets.forEach((count, i) => {
          below += count;
          const bound = i < buckets.length ? String(buckets[i]) : '+Inf';
          duration.push(`${durationName}_bucket{le="${bound}",${labels}} ${sampleValue(below)}`);
        });
        duration.push(
          `${durationName}_sum{${labels}} ${sampleValue(series.sum)}`,
          `${durationName}_count{${labels}} ${sampleValue(series.count)}`,
        );
      }
    return [requests.join('\n'), duration.join('\n')];
  }
}
