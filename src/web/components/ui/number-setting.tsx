/** One whole-number setting of a form: its label, the field with its unit, and what is wrong with it. */
export const NumberSetting = ({
  id,
  name,
  label,
  unit,
  min,
  max,
  value,
  error,
  onChange,
}: {
  /** The form's own ID: the field's and its error's IDs derive from it. */
  id: string;
  name: string;
  label: string;
  unit: string;
  min: number;
  max: number;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) => (
  <div className="flex flex-col gap-1">
    <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
      {label}
    </label>
    <div className="flex items-center gap-2">
      <input
        id={`${id}-${name}`}
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-${name}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={`w-28 rounded-md border bg-panel px-2 py-1 text-sm tabular text-ink focus-visible:outline-2 focus-visible:outline-accent ${error ? 'border-danger' : 'border-line'}`}
      />
      <span className="text-sm text-muted">{unit}</span>
    </div>
    {error ? (
      <p id={`${id}-${name}-error`} className="text-xs font-medium text-danger">
        {error}
      </p>
    ) : null}
  </div>
);
