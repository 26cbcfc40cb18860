/** The chart's range as a group of toggle buttons: the pressed one is the range on screen. */
import { ToggleGroup } from '../../../components/ui/toggle-group.js';
import { RANGE_MINUTES, type RangeMinutes } from '../utils/chart-series.js';

const CHOICES = RANGE_MINUTES.map((minutes) => ({ value: minutes, label: `${minutes} min` }));

export const RangeToggle = ({ range, onRangeChange }: { range: RangeMinutes; onRangeChange: (range: RangeMinutes) => void }) => (
  <ToggleGroup label="Time range" choices={CHOICES} selected={range} onSelect={onRangeChange} />
);
