/** JsSIP, fetched as a chunk of its own when someone turns the browser phone on, never with the first screen. */
import type { JsSIPModule } from './phone.js';

export const loadJsSIP = async (): Promise<JsSIPModule> => {
  const jssip = await import('jssip');
  return jssip;
};
