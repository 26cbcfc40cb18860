/** The one time zone every time on screen is shown in: `?tz=` in the URL, else the browser's. */
import { useSearchParams } from 'react-router';
import { isTimeZone } from '../../contract/time-zone.js';
import { browserTimeZone } from './format.js';

export const useTimeZone = (): string => {
  const [params] = useSearchParams();
  const requested = params.get('tz');
  return requested && isTimeZone(requested) ? requested : browserTimeZone();
};
