/**
 * Phone numbers read and written by libphonenumber-js with its smallest ("min") metadata. It weighs
 * about 30 KiB gzip, so the dashboard loads this module once its first data is on screen
 * (phone-rules-loader.ts); lib/format.ts and lib/phone-country.ts use it through the loader.
 */
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/min';

/**
 * How to read a digit string: with its country code ("442079460958"), or as a number of `country`
 * ("02079460958", "2125550199" in the US). A valid number beats one that is merely possible (the
 * right length); between two possible ones the default country is the better guess ("5551234567"
 * is a US number to a US desk, not an 8-digit Brazilian one).
 */
const readPhoneNumber = (digits: string, country: CountryCode): { number: PhoneNumber; withCountryCode: boolean } | undefined => {
  const international = parsePhoneNumberFromString(`+${digits}`);
  const national = parsePhoneNumberFromString(digits, country);
  // libphonenumber also finds a country code in digits given as national ("447700900123" in GB).
  const carriesCode = (number: PhoneNumber) => digits === `${number.countryCallingCode}${number.nationalNumber}`;
  const readings = [
    international?.isValid() ? international : undefined,
    national?.isValid() ? national : undefined,
    national?.isPossible() ? national : undefined,
    international?.isPossible() ? international : undefined,
  ];
  const number = readings.find((reading) => reading !== undefined);
  return number && { number, withCountryCode: number === international || carriesCode(number) };
};

/**
 * With the country code: "+44 20 7946 0958", "+33 6 12 34 56 78". North American numbers keep the
 * area code in parentheses ("+1 (415) 555-0123"), as they are written there.
 */
const internationalText = (number: PhoneNumber): string =>
  number.countryCallingCode === '1' ? `+1 ${number.formatNational()}` : number.formatInternational();

/** The number as its country writes it, with the country code when the digits carry one; the digits when they are no number. */
export const writePhoneNumber = (digits: string, country: CountryCode): string => {
  const reading = readPhoneNumber(digits, country);
  if (!reading) return digits;
  return reading.withCountryCode ? internationalText(reading.number) : reading.number.formatNational();
};

/** The national form of digits that carry their country code ("020 7946 0958" for 442079460958). */
export const writeNationalNumber = (digits: string, country: CountryCode): string | undefined => {
  const reading = readPhoneNumber(digits, country);
  return reading?.withCountryCode ? reading.number.formatNational() : undefined;
};

export const isPhoneCountry = (code: string): code is CountryCode => isSupportedCountry(code);

/** Every country with phone rules and its calling code. */
export const phoneCountries = (): { code: CountryCode; callingCode: string }[] =>
  getCountries().map((code) => ({ code, callingCode: getCountryCallingCode(code) }));
