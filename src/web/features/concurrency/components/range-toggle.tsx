/** The chart's range as a group of toggle buttons: the pressed one is the range on screen. */
import { Button } from '../../../components/ui/button.js';
import { RANGE_MINUTES, type RangeMinutes } from '../utils/chart-series.js';

export const RangeToggle = ({ range, onRangeChange }: { range: RangeMinutes; onRangeChange: (range: RangeMinutes) => void }) => (
  <div role="group" aria-label="Time range" className="flex gap-1">
    {RANGE_MINUTES.map((minutes) => (
      <Button
        key={minutes}
        size="sm"
        variant={minutes === range ? 'primary' : 'secondary'}
        aria-pressed={minutes === range}
        onClick={() => onRangeChange(minutes)}
      >
        {minutes} min
      </Button>
    ))}
  </div>
);
