/** The country that phone numbers without a country code belong to, kept in the URL beside the time zone. */
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { COUNTRY_PARAM, parsePhoneCountry, phoneCountryOptions, usePhoneCountry } from '../lib/phone-country.js';
import { usePhoneRulesReady } from '../lib/phone-rules-loader.js';

export const PhoneCountryPicker = () => {
  // The full list comes with the phone rules, just after the first data.
  usePhoneRulesReady();
  const country = usePhoneCountry();
  const [, setParams] = useSearchParams();
  const hintID = useId();
  const choose = (code: string) => {
    const chosen = parsePhoneCountry(code);
    if (!chosen) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(COUNTRY_PARAM, chosen);
        return next;
      },
      { replace: true },
    );
  };
  return (
    <label className="flex items-center gap-1 text-sm">
      <span className="text-muted">Default country</span>
      <select
        aria-describedby={hintID}
        className="w-48 rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink"
        value={country}
        onChange={(event) => choose(event.target.value)}
      >
        {phoneCountryOptions(country).map((option) => (
          <option key={option.code} value={option.code}>
            {option.label}
          </option>
        ))}
      </select>
      {/* Outside the label's text, so the control's name stays "Default country". */}
      <span id={hintID} hidden>
        Phone numbers given without a country code are read as numbers of this country.
      </span>
    </label>
  );
};
