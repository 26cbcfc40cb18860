/**
 * Agents' time as horizontal stacked bars, one per agent (recharts): on a call, ringing, available,
 * inactive, offline, unknown from the left. Each state has a colour and a texture of its own
 * (solid, upright stripes, slanted hatching, crossed, tinted, dotted), so no two states differ by
 * colour alone; the legend draws them alike.
 */
import { memo, useId, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AgentTime } from '../../../../contract/reports.js';
import { axisRoom, countAxis } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { svgID } from '../../../components/charts/series-style.js';
import { formatSeconds } from '../../../lib/format.js';

type Texture = 'solid' | 'stripes' | 'hatch' | 'cross' | 'tint' | 'dots';

export const AGENT_STATES = [
  { key: 'onCallSeconds', label: 'On a call', color: 'var(--talking)', texture: 'solid' },
  { key: 'ringingSeconds', label: 'Ringing', color: 'var(--ringing)', texture: 'hatch' },
  { key: 'availableSeconds', label: 'Available', color: 'var(--available)', texture: 'stripes' },
  { key: 'inactiveSeconds', label: 'Inactive', color: 'var(--muted)', texture: 'cross' },
  { key: 'offlineSeconds', label: 'Offline', color: 'var(--ended)', texture: 'tint' },
  { key: 'unknownSeconds', label: 'Unknown', color: 'var(--line)', texture: 'dots' },
] as const satisfies readonly { key: keyof AgentTime; label: string; color: string; texture: Texture }[];

/** A state's fill: a solid colour, or a pattern of it; place `TexturePattern`s in the same SVG. */
export const TexturePattern = ({ id, color, texture }: { id: string; color: string; texture: Texture }) => (
  <pattern
    id={id}
    patternUnits="userSpaceOnUse"
    width="6"
    height="6"
    patternTransform={texture === 'hatch' ? 'rotate(45)' : undefined}
  >
    <rect width="6" height="6" fill={color} fillOpacity={texture === 'solid' ? 1 : texture === 'stripes' ? 0.55 : 0.25} />
    {texture === 'hatch' || texture === 'stripes' ? <line x1="0" y1="0" x2="0" y2="6" stroke={color} strokeWidth="2.5" /> : null}
    {texture === 'dots' ? <circle cx="3" cy="3" r="1.4" fill={color} /> : null}
    {texture === 'cross' ? <path d="M0 0L6 6M6 0L0 6" stroke={color} strokeWidth="1.2" /> : null}
  </pattern>
);

export const agentLabel = (agent: AgentTime) =>
  `${`${agent.firstName} ${agent.lastName}`.trim() || agent.subscriberID} (${agent.extension})`;

type Row = { name: string; agent: AgentTime } & Partial<Record<(typeof AGENT_STATES)[number]['key'], number>>;

/** Height of one agent's bar with its gap. */
export const AGENT_ROW_PX = 28;
const MARGIN = { top: 4, right: 16, bottom: 4, left: 0 };
const FONT_PX = 12;
/** The names take at most this share of a narrow chart's width; a longer name is cut, whole in the table and the readout. */
const MOST_NAME_SHARE = 0.4;
const cutTo = (chars: number) => (name: string) => (name.length <= chars ? name : `${name.slice(0, Math.max(1, chars - 1))}…`);

const hours = (secondsValue: number) => `${Math.round((secondsValue / 3600) * 10) / 10} h`;

/** The names' room in a chart `width` wide, and the names cut to fit it. */
const nameAxis = (wanted: number, width: number) => {
  const room = Math.min(wanted, Math.floor(width * MOST_NAME_SHARE));
  return { width: room, tickFormatter: cutTo(Math.floor((room - 12) / (FONT_PX * 0.62))) };
};

export const AgentTimeChart = memo(({ agents }: { agents: readonly AgentTime[] }) => {
  const base = useId();
  const rows = useMemo(
    () =>
      agents.map((agent): Row => ({
        name: agentLabel(agent),
        agent,
        ...Object.fromEntries(AGENT_STATES.map((state) => [state.key, agent[state.key]])),
      })),
    [agents],
  );
  const axes = useMemo(() => {
    const top = Math.max(0, ...agents.map((a) => AGENT_STATES.reduce((sum, state) => sum + a[state.key], 0)));
    // Ticks on whole hours; a range shorter than an hour ticks in seconds' round steps.
    const inHours = countAxis(top / 3600);
    const ticks = inHours.ticks.map((h) => h * 3600);
    const longest = Math.max(1, ...rows.map((row) => row.name.length));
    const room = axisRoom(FONT_PX, Math.min(longest, 28));
    const tick = { fill: 'var(--muted)', fontSize: '0.75rem', width: undefined };
    return {
      x: {
        type: 'number' as const,
        domain: [0, inHours.yTop * 3600],
        ticks,
        interval: 0 as const,
        tickFormatter: hours,
        tick,
        stroke: 'var(--line)',
        height: room.xHeight,
        allowDataOverflow: true,
      },
      y: { type: 'category' as const, dataKey: 'name', interval: 0 as const, tick, stroke: 'var(--line)' },
      yWidth: room.yWidth,
    };
  }, [agents, rows]);
  const readout = useMemo(() => {
    const read: Readout<Row> = (row) => ({
      heading: row.name,
      rows: [
        ...AGENT_STATES.map((state) => ({ name: state.label, value: formatSeconds(row.agent[state.key]) })),
        { name: 'Logged in', value: formatSeconds(row.agent.loggedInSeconds) },
      ],
    });
    return <ChartReadout readout={read} />;
  }, []);

  return (
    <ChartFrame>
      {({ width, height }) => (
        <BarChart
          width={width}
          height={height}
          data={rows}
          layout="vertical"
          margin={MARGIN}
          barCategoryGap={6}
          aria-label={READOUT_KEYS_LABEL}
        >
          <defs>
            {AGENT_STATES.map((state) => (
              <TexturePattern key={state.key} id={svgID(base, state.key)} color={state.color} texture={state.texture} />
            ))}
          </defs>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" horizontal={false} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} {...nameAxis(axes.yWidth, width)} />
          {AGENT_STATES.map((state) => (
            <Bar
              key={state.key}
              dataKey={state.key}
              name={state.label}
              stackId="time"
              fill={`url(#${svgID(base, state.key)})`}
              stroke={state.color}
              strokeWidth={0.5}
              isAnimationActive={false}
            />
          ))}
          <Tooltip
            content={readout}
            cursor={{ fill: 'var(--raised)', fillOpacity: 0.5 }}
            wrapperStyle={READOUT_WRAPPER}
            isAnimationActive={false}
          />
        </BarChart>
      )}
    </ChartFrame>
  );
});
AgentTimeChart.displayName = 'AgentTimeChart';
