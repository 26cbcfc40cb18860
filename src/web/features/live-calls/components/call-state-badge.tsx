/** A call's state as icon plus word, so the state never rests on colour alone. */
import type { ReactNode } from 'react';
import { callStateLabel, type CallState } from '../../../lib/call-state.js';
import { EndedIcon, MissedIcon, RingingIcon, TalkingIcon } from './call-icons.js';

const looks: Record<CallState, { icon: ReactNode; tone: string }> = {
  ringing: { icon: <RingingIcon />, tone: 'text-ringing' },
  talking: { icon: <TalkingIcon />, tone: 'text-talking' },
  missed: { icon: <MissedIcon />, tone: 'text-missed' },
  ended: { icon: <EndedIcon />, tone: 'text-ended' },
};

export const CallStateBadge = ({ state }: { state: CallState }) => (
  <span
    className={`inline-flex items-center gap-1.5 rounded-full border border-current/30 px-2 py-0.5 text-xs font-semibold ${looks[state].tone}`}
  >
    {looks[state].icon}
    {callStateLabel[state]}
  </span>
);
