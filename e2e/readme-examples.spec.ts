/**
 * The shell examples a new user pastes — the API page's "Using the API" block (docs/api.md) and the start-up
 * banner's — run as written, in bash, against the demo: every command exists on this machine,
 * every request succeeds, and no header goes out empty.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startService, type ServiceProcess } from './support/service-process.js';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService();
});
test.afterAll(async () => {
  await service?.stop();
});

/**
 * Wraps curl: an empty header value (what `$(missing-command)` leaves) fails the run, and each
 * request prints its status on a line of its own.
 */
const CURL_GUARD = `
curl() {
  for arg in "$@"; do
    case "$arg" in *': '|*':') echo "EMPTY HEADER: $arg" >&2; return 1;; esac
  done
  command curl -sS -o /dev/null -w 'HTTP %{http_code}\\n' "$@"
}
`;

const runBash = (script: string) => {
  const result = spawnSync('bash', ['-c', `set -u\n${CURL_GUARD}\n${script}`], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

const statuses = (stdout: string) => [...stdout.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1]));

/** The fenced `sh` block that follows a heading of the API's page (linked from the README). */
const apiDocBlockAfter = (heading: string) => {
  const readme = readFileSync('docs/api.md', 'utf8');
  const start = readme.indexOf(heading);
  const fence = readme.indexOf('```sh\n', start);
  return readme.slice(fence + '```sh\n'.length, readme.indexOf('\n```', fence));
};

test("the API page's examples run as written and succeed", () => {
  const block = apiDocBlockAfter('## Using the API')
    .replace(/^TOKEN=.*$/m, `TOKEN='${service.token}'`)
    .replace(/^BASE=http:\/\/127\.0\.0\.1:8080/m, `BASE=${service.baseURL}`);
  expect(block).toContain('Idempotency-Key');
  const { status, stdout, stderr } = runBash(block);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  expect(statuses(stdout)).toEqual([200, 200, 200, 204]);
});

test("the start-up banner's curl lines run as printed and succeed", () => {
  const banner = service.output();
  const lines = banner
    .slice(banner.indexOf('Try it:'), banner.indexOf('API description:'))
    .split('\n')
    .slice(1)
    .join('\n');
  expect(lines).toContain('Idempotency-Key');
  const { status, stdout, stderr } = runBash(lines);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  expect(statuses(stdout)).toEqual([200, 204]);
});

test("the start-up banner's metrics line scrapes /metrics, which the API token cannot", () => {
  const banner = service.output();
  const line = /Metrics \(.*?\): (curl .*\/metrics)$/m.exec(banner)?.[1];
  expect(line).toBeDefined();
  const scrape = runBash(line ?? '');
  expect(scrape.stderr).toBe('');
  expect(statuses(scrape.stdout)).toEqual([200]);
  const withApiToken = runBash(`curl -H "Authorization: Bearer ${service.token}" ${service.baseURL}/metrics`);
  expect(statuses(withApiToken.stdout)).toEqual([401]);
});
