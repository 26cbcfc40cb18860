/** Loads the workspace for a page: a loading line, a plain error, a refused token signs out. */
import type { ReactNode } from 'react';
import { Banner } from '../components/ui/banner.js';
import { useWorkspace, type Workspace } from '../lib/workspace.js';
import { useRefusedToken } from './use-refused-token.js';

type Select = (choice: { app?: string; provider?: string }) => void;

export const WorkspaceGate = ({ children }: { children: (workspace: Workspace, onSelect: Select) => ReactNode }) => {
  const state = useWorkspace();
  useRefusedToken(state.status === 'error' ? state.error : undefined);
  if (state.status === 'pending') return <p className="p-4 text-muted">Loading your workspace…</p>;
  if (state.status === 'error')
    return (
      <Banner tone="danger" title="Cannot load your workspace">
        {state.error.detail} ({state.error.code})
      </Banner>
    );
  return children(state.workspace, state.select);
};
