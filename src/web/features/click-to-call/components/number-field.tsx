/** The number to call: takes whatever people paste, shows the digits it will dial, explains what it refuses. */
import { memo, useId } from 'react';
import { parseDialInput } from '../../../lib/dial-input.js';
import { fieldErrorClass, inputClass, labelClass } from './field-styles.js';

/** What a tel: link said beyond the digits, and what becomes of it. */
const dialNote = ({ extension, localTo }: { extension?: string; localTo?: string }): string | undefined => {
  const notes = [
    localTo && `A local number of ${localTo}: dialed as written.`,
    extension && `Extension ${extension} is not dialed: ask for it once the call connects.`,
  ].filter(Boolean);
  return notes.length > 0 ? notes.join(' ') : undefined;
};

/** Memoised: the form renders with every update of the calls, the field only when its own props change (see `SearchInput`). */
export const NumberField = memo(function NumberField({
  id,
  value,
  showError,
  serviceError,
  onChange,
  onBlur,
}: {
  id: string;
  value: string;
  /** Explain an invalid number only once the user left the field or submitted, not mid-typing. */
  showError: boolean;
  /** The service's own objection to the number last sent, until the number changes. */
  serviceError?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const hintId = useId();
  const noteId = useId();
  const errorId = useId();
  const dial = parseDialInput(value);
  const error = serviceError ?? (showError && !dial.ok ? dial.error : undefined);
  const note = dial.ok ? dialNote(dial) : undefined;
  const describedBy = [error && errorId, hintId, note && noteId].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={labelClass}>
        Number to call
      </label>
      <input
        id={id}
        type="tel"
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} font-mono`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <p id={hintId} className={`tabular text-sm ${dial.ok ? 'text-ink' : 'text-muted'}`}>
        {dial.ok
          ? `Will dial ${dial.digits}`
          : 'Paste it as you have it: spaces, dashes, dots, parentheses, a leading + and tel: links are fine.'}
      </p>
      {note ? (
        <p id={noteId} className="text-sm text-muted">
          {note}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
    </div>
  );
});
