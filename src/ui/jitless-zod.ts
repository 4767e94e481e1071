import { config } from 'zod';

/**
 * The page's Content-Security-Policy refuses eval. zod's faster parser would probe for it on the
 * first parse, and the browser would report that refused probe as a policy violation: the page
 * parses without it. main.ts imports this first, before any module could parse.
 */
config({ jitless: true });
