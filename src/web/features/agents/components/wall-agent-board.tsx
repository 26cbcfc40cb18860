/**
 * The agent board on a wall screen: the totals, then every agent in tiles sized to fill the space
 * it is given, which it never overflows. When even the smallest readable tile leaves some out, it
 * shows those that matter most (ringing, then on a call, the longest first) and says how many more
 * there are; otherwise agents keep their places, by extension.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { AgentBoardFeed } from '../../../lib/api/use-agent-board.js';
import { measureAgentsToCommit } from '../../../lib/perf-marks.js';
import { useElementSize } from '../../../lib/use-element-size.js';
import { fitGrid, sortAgents, sortByAttention } from '../utils/agent-view.js';
import { WallAgentTile } from './agent-tile.js';
import { WallAgentTotals } from './agent-totals.js';

/** Tile proportions and bounds, in rem: rem follows the wall's screen, so these read the same on any TV. */
const ASPECT = 2.5;
const MIN_TILE_REM = 2;
const MAX_TILE_REM = 4.5;
const GAP_REM = 0.4;
/** Each of a tile's two lines takes about this share of its height. */
const TEXT_SHARE = 0.3;

const remPx = () => (typeof document === 'undefined' ? 16 : parseFloat(getComputedStyle(document.documentElement).fontSize) || 16);

export const WallAgentBoard = ({ board }: { board: AgentBoardFeed }) => {
  const area = useRef<HTMLDivElement>(null);
  // Empty (the agents are loading), the board draws nothing from its size: no need to render it before the paint.
  const { width, height } = useElementSize(area, { width: 1200, height: 400 }, { beforePaint: board.agents.length > 0 });
  const rem = remPx();
  const fit = fitGrid(width, height, board.agents.length, { aspect: ASPECT, gap: GAP_REM * rem, minHeight: MIN_TILE_REM * rem, maxHeight: MAX_TILE_REM * rem });
  const overflow = fit.shown < board.agents.length;
  const ordered = useMemo(
    () => (overflow ? sortByAttention(board.agents) : sortAgents(board.agents, 'extension')),
    [board.agents, overflow],
  );
  // The last place says how many more there are, when not everyone fits.
  const tiles = overflow ? ordered.slice(0, Math.max(0, fit.shown - 1)) : ordered;
  const hidden = board.agents.length - tiles.length;
  useLayoutEffect(measureAgentsToCommit, [board.agents]);
  const fontSize = Math.round(fit.height * TEXT_SHARE);
  const widthEm = fit.width / fontSize;
  const extension = widthEm >= 8.5;
  const word = widthEm >= 11;
  // The same object while the room stays the same, so the tiles keep their props.
  const room = useMemo(() => ({ extension, word }), [extension, word]);

  return (
    <section aria-label="Agents" className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-6">
        <h2 className="text-[2rem] leading-tight font-bold">Agents</h2>
        <WallAgentTotals totals={board.totals} />
      </div>
      {/* Positioned, so that it clips the absolutely placed words for screen readers too, during the frame before a shrunk board refits. */}
      <div ref={area} className="relative min-h-0 flex-1 overflow-hidden">
        {board.status === 'pending' ? <p className="text-[1.5rem] text-muted">Loading the agents…</p> : null}
        {board.status === 'error' ? <p className="text-[1.5rem] text-danger">The agent board is not available.</p> : null}
        <ul
          className="grid content-start"
          style={{
            gridTemplateColumns: `repeat(${fit.columns}, ${Math.floor(fit.width)}px)`,
            gridAutoRows: `${fit.height}px`,
            gap: `${GAP_REM}rem`,
            // Two lines of text fill a tile: the type follows the tile's height.
            fontSize: `${fontSize}px`,
          }}
        >
          {tiles.map((entry) => (
            <li key={`${entry.providerID}/${entry.agent.subscriberID}`}>
              <WallAgentTile entry={entry} room={room} />
            </li>
          ))}
          {hidden > 0 ? (
            <li className="flex items-center justify-center rounded-md border border-dashed border-line text-[1.25rem] font-semibold text-muted">
              +{hidden} more
            </li>
          ) : null}
        </ul>
      </div>
    </section>
  );
};
