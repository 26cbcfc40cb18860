/** What Node's HTTP parser refuses, and oversized inputs, still answer in the problem format, bounded in size. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema, type ProblemCode } from '../../contract/problem.js';
import { rawExchange } from '../test-support/raw-http.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';
import { MAX_FIELD_ERRORS } from './zod-problem.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const auth = `Authorization: Bearer ${tokens.acmeAll}\r\n`;

let t: TestApp;
let port: number;
beforeEach(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterEach(async () => {
  await t.app.close();
});

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a control character in a header', `GET /v1/me HTTP/1.1\r\nHost: x\r\n${auth}X-A: a\x01b\r\n\r\n`, 400, 'invalid_request', /character HTTP does not allow/],
    [
      'Content-Length twice',
      `POST ${paths.makeCall(scope)} HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
      400,
      'invalid_request',
      /Content-Length header is given more than once/,
    ],
    [
      'Transfer-Encoding with Content-Length',
      `POST ${paths.makeCall(scope)} HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'invalid_request',
      /Transfer-Encoding and Content-Length must not be sent together/,
    ],
    ['an unknown method', `BREW /v1/me HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 400, 'invalid_request', /not a known HTTP method/],
    ['headers over the size limit', `GET /v1/me HTTP/1.1\r\nHost: x\r\n${auth}X-Long: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large', /larger than 16 KiB/],
  ] as const)('answers %s with a problem and closes the connection', async (_label, bytes, status, code: ProblemCode, detail) => {
    const answer = await rawExchange(port, bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers.connection).toBe('close');
    const problem = problemSchema.parse(JSON.parse(answer.body));
    expect(problem).toMatchObject({ code, status, type: `urn:callboard:problem:${code}` });
    expect(problem.detail).toMatch(detail);
    expect(answer.closedAfterMs).toBeDefined();
  });
});

describe('oversized inputs', () => {
  it('names at most a few of 2,300 unknown query parameters, and says how many more there were', async () => {
    const query = Array.from({ length: 2300 }, (_, i) => `p${i}=1`).join('&');
    const res = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.concurrency(scope)}?${query}` });
    expect(res.statusCode).toBe(400);
    const problem = problemSchema.parse(res.json());
    expect(problem.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(problem.errors?.[0]).toEqual({ field: 'p0', message: 'is not a known query parameter' });
    expect(problem.detail).toMatch(/; and 2280 more\.$/);
    expect(res.body.length).toBeLessThan(3000);
  });

  it('shortens a long parameter name and a long unknown path in the answer', async () => {
    const name = 'n'.repeat(5000);
    const listed = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.concurrency(scope)}?${name}=1` });
    expect(problemSchema.parse(listed.json()).errors?.[0]?.field).toBe(`${'n'.repeat(100)}…`);
    const missing = await t.as(tokens.acmeAll, { method: 'GET', url: `/${'x'.repeat(10_000)}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.body.length).toBeLessThan(600);
  });
});
