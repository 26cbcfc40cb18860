/**
 * Component tests: DOM matchers, the phone rules loaded up front, a `fetch` that answers only the
 * test's own routes, and a clean DOM and storage after each test.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { loadPhoneRules } from './lib/phone-rules-loader.js';
import { endFetchStub, stubFetch } from './test-support/fetch-stub.js';

// A busy machine (CI beside other work) can take longer than a second to render and answer:
// waiting up to 5 s changes nothing for a test whose expectation never comes true.
configure({ asyncUtilTimeout: 5_000 });

// The app loads them after its first data; components under test get them from the start.
await loadPhoneRules();

// No test reaches a real network: a request its routes do not answer fails it.
beforeEach(() => {
  stubFetch({});
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  endFetchStub();
});
