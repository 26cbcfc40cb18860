/** What an analytics panel shows while its answer is on its way, or when it failed. */
import { Banner } from '../../../components/ui/banner.js';

export const Loading = () => <p className="text-sm text-muted">Loading…</p>;

export const QueryProblem = ({ error }: { error: Error }) => (
  <Banner tone="danger" title="Cannot load this panel">
    {error.message}
  </Banner>
);
