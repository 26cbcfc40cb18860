/** Component tests: DOM matchers, the phone rules loaded up front, and a clean DOM and storage after each test. */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadPhoneRules } from './lib/phone-rules-loader.js';

// The app loads them after its first data; components under test get them from the start.
await loadPhoneRules();

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
