/** The country a phone number without a country code is read in: `?country=` in the URL, else the browser's region, else US. */
import type { CountryCode } from 'libphonenumber-js/min';
import { useSearchParams } from 'react-router';
import { phoneRules } from './phone-rules-loader.js';

export type { CountryCode };

/** The URL parameter, beside `tz`: both say how the screen reads, so a shared link reads the same. */
export const COUNTRY_PARAM = 'country';

const FALLBACK_COUNTRY: CountryCode = 'US';

/**
 * "gb" or "GB" → "GB"; anything the phone rules do not know → undefined. Before the rules load
 * (numbers show as digits until then) any two-letter region code passes.
 */
export const parsePhoneCountry = (text: string | null | undefined): CountryCode | undefined => {
  const code = text?.trim().toUpperCase() ?? '';
  const rules = phoneRules();
  if (rules) return rules.isPhoneCountry(code) ? code : undefined;
  return /^[A-Z]{2}$/.test(code) ? (code as CountryCode) : undefined;
};

const regionOfLanguages = (): CountryCode => {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const language of languages) {
    try {
      const region = parsePhoneCountry(new Intl.Locale(language).maximize().region);
      if (region) return region;
    } catch {
      // An unparsable language tag says nothing about the country: try the next one.
    }
  }
  return FALLBACK_COUNTRY;
};

// Worked out once before the rules load and once after (they may refuse the region): every page
// shell reads it on every render, and `Intl.Locale(...).maximize()` is not free on a slow device.
const browserCountry: { beforeRules?: CountryCode; withRules?: CountryCode } = {};

/** The region of the browser's language ("en-GB" → GB, "fr" → FR), when it names one with phone rules. */
export const browserPhoneCountry = (): CountryCode =>
  phoneRules() ? (browserCountry.withRules ??= regionOfLanguages()) : (browserCountry.beforeRules ??= regionOfLanguages());

let defaultCountry: CountryCode | undefined;

/** The country that `formatPhoneNumber(digits)` uses when it is given none. */
export const defaultPhoneCountry = (): CountryCode => (defaultCountry ??= browserPhoneCountry());

/**
 * Makes `country` the default for callers that pass none. The page shell calls it while it renders,
 * so everything rendered below it in the same pass already reads the URL's country.
 */
export const setDefaultPhoneCountry = (country: CountryCode): void => {
  defaultCountry = country;
};

/** The displayed country: `?country=`, else the browser's. */
export const usePhoneCountry = (): CountryCode => {
  const [params] = useSearchParams();
  return parsePhoneCountry(params.get(COUNTRY_PARAM)) ?? browserPhoneCountry();
};

export interface CountryOption {
  code: CountryCode;
  /** "United Kingdom (+44)" */
  label: string;
}

let regionNames: Intl.DisplayNames | null | undefined;

// Made on first use, with the picker's list, not as the module loads: building it costs a slow device's first screen ~30 ms.
const englishRegionNames = (): Intl.DisplayNames | null => {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  return regionNames;
};

export const phoneCountryName = (code: CountryCode): string => englishRegionNames()?.of(code) ?? code;

let options: CountryOption[] | undefined;

/**
 * Every country with phone rules, by name, for a picker; until the rules have loaded only `current`,
 * by its code: the names come with the list, and with them the cost of the browser's table of names.
 */
export const phoneCountryOptions = (current: CountryCode): CountryOption[] => {
  const rules = phoneRules();
  if (!rules) return [{ code: current, label: current }];
  if (options) return options;
  // One collator for the whole sort (`localeCompare` with a locale builds one per comparison), made
  // here rather than when the module loads: the module is on the first screen, the list is not.
  const byName = new Intl.Collator('en');
  options = rules
    .phoneCountries()
    .map(({ code, callingCode }) => ({ code, label: `${phoneCountryName(code)} (+${callingCode})` }))
    .sort((a, b) => byName.compare(a.label, b.label));
  return options;
};
