/** How often the live view polls: `?poll=` in ms (1 s to 60 s), else the default. */
import { useSearchParams } from 'react-router';
import { DEFAULT_POLL_MS } from './api/calls-query.js';

export const parsePollInterval = (value: string | null): number => {
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 1000 && ms <= 60_000 ? Math.round(ms) : DEFAULT_POLL_MS;
};

export const usePollInterval = (): number => parsePollInterval(useSearchParams()[0].get('poll'));
