/** "Place a call": the click-to-call form and the offer to open phone links in it, or why this connection cannot place calls. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { Panel } from '../../../components/ui/panel.js';
import { useApi } from '../../../lib/api/api-context.js';
import type { Workspace } from '../../../lib/workspace.js';
import { ClickToCallForm } from './click-to-call-form.js';
import { PhoneLinksOffer } from './phone-links-offer.js';

/** Why the connection cannot place calls, in the terms of what it is: a token's permission, a person's role. */
const CannotPlaceCalls = () =>
  useApi().connection.kind === 'session' ? (
    <p className="text-sm text-muted">Your role may watch calls but not place them. Ask an administrator if you need to.</p>
  ) : (
    <p className="text-sm text-muted">
      Your token may watch calls but not place them: it lacks the <span className="font-mono text-ink">calls:write</span> permission.
      Ask an administrator for a token that has it.
    </p>
  );

export const ClickToCallPanel = ({ workspace, calls }: { workspace: Workspace; calls: CallRecord[] }) => (
  // A call in progress says and announces when it is overdue, wherever the agent has scrolled.
  <Panel title="Place a call" className="self-start" tickOffScreen>
    {!workspace.permissions.includes('calls:write') ? (
      <CannotPlaceCalls />
    ) : workspace.scopes.length === 0 ? (
      <p className="text-sm text-muted">This application has no provider to place calls through.</p>
    ) : (
      <div className="flex flex-col gap-4">
        {/* A new application starts a fresh form: its providers, subscribers and calls are all different. */}
        <ClickToCallForm key={`${workspace.accountID}/${workspace.applicationID}`} workspace={workspace} calls={calls} />
        <PhoneLinksOffer />
      </div>
    )}
  </Panel>
);
