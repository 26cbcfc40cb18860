/** Each agent state's icon: a shape of its own, so the state never rests on colour alone. */
import type { ReactNode } from 'react';
import type { AgentState } from '../../../../contract/agents.js';

const Icon = ({ children }: { children: ReactNode }) => (
  <svg
    aria-hidden="true"
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.6"
    strokeLinecap="round"
    strokeLinejoin="round"
    className="h-[1em] w-[1em] shrink-0"
  >
    {children}
  </svg>
);

const icons: Record<AgentState, ReactNode> = {
  // A check in a circle: free to take a call.
  available: (
    <>
      <circle cx="8" cy="8" r="6" />
      <path d="m5.3 8.3 1.9 1.9 3.5-3.9" />
    </>
  ),
  // A bell: the phone rings.
  ringing: (
    <>
      <path d="M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11L4 11Z" />
      <path d="M6.5 14.5h3" />
    </>
  ),
  // A speech bubble: talking.
  'on-call': <path d="M2.5 3.5h11v7h-6l-3 3v-3h-2Z" />,
  // A plug pulled out: the phone is not registered.
  offline: (
    <>
      <path d="M6 2.5v3m4-3v3M4.5 5.5h7v2.5a3.5 3.5 0 0 1-7 0Z" />
      <path d="M8 11.5v2M2.5 13.5l11-11" />
    </>
  ),
  // A barred circle: the account is disabled.
  inactive: (
    <>
      <circle cx="8" cy="8" r="6" />
      <path d="m3.8 12.2 8.4-8.4" />
    </>
  ),
};

export const AgentStateIcon = ({ state }: { state: AgentState }) => <Icon>{icons[state]}</Icon>;

/** Text and border colour of each state; offline and inactive share the muted ink, told apart by icon and word. */
export const agentTone: Record<AgentState, string> = {
  available: 'text-available',
  ringing: 'text-ringing',
  'on-call': 'text-talking',
  offline: 'text-ended',
  inactive: 'text-ended',
};

export const agentBorder: Record<AgentState, string> = {
  available: 'border-l-available',
  ringing: 'border-l-ringing',
  'on-call': 'border-l-talking',
  offline: 'border-l-line',
  inactive: 'border-l-line',
};
