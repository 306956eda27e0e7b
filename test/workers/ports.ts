/** Fixed ports of the sandbox and scraper the worker tests start, kept clear of `npm start`'s. */
export const TEST_SANDBOX_PORT = 18790;
export const TEST_SCRAPER_PORT = 18791;
