/** Application and provider pickers; "All providers" merges every provider of the application. */
import { ALL_PROVIDERS, type Workspace } from '../lib/workspace.js';

const selectClass = 'rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink';

export const WorkspaceSwitcher = ({ workspace, onSelect }: { workspace: Workspace; onSelect: (choice: { app?: string; provider?: string }) => void }) => (
  <div className="flex flex-wrap items-center gap-2">
    {workspace.applications.length > 1 ? (
      <label className="flex items-center gap-1 text-sm">
        <span className="text-muted">Application</span>
        <select className={selectClass} value={workspace.applicationID} onChange={(e) => onSelect({ app: e.target.value })}>
          {workspace.applications.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
    ) : (
      <span className="text-sm text-muted">{workspace.applications[0]?.name}</span>
    )}
    <label className="flex items-center gap-1 text-sm">
      <span className="text-muted">Provider</span>
      <select className={selectClass} value={workspace.provider} onChange={(e) => onSelect({ provider: e.target.value })}>
        {workspace.providers.length > 1 ? <option value={ALL_PROVIDERS}>All providers</option> : null}
        {workspace.providers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  </div>
);
