/**
 * Zod as the dashboard imports it (`zod` is aliased here in the build): configured before any
 * schema is made. Zod compiles object schemas with `new Function` where the page allows it, and
 * probes whether it does by trying; under the dashboard's CSP (no 'unsafe-eval') the probe fails
 * as it should, but the browser reports the try as a Content-Security-Policy violation on every
 * page. Zod's interpreter is used from the start instead, so nothing is tried.
 */
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
