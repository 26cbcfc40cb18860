/** Section 20 of `npm run bench` alone: `node --import tsx bench/measure-browser-phones.ts [samples] [window seconds]`. */
import { browserPhoneRuns, browserPhoneSection } from './browser-phone-benchmarks.js';

const [samples = '20', seconds = '10'] = process.argv.slice(2);
process.stdout.write(browserPhoneSection(await browserPhoneRuns(Number(samples), Number(seconds))));
