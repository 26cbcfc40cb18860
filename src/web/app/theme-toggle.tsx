/** System / light / dark. */
import { useThemeChoice, type ThemeChoice } from '../lib/theme.js';

export const ThemeToggle = () => {
  const [choice, setChoice] = useThemeChoice();
  return (
    <label className="flex items-center gap-1 text-sm">
      <span className="text-muted">Theme</span>
      <select className="rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink" value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
};
