/**
 * Whether an error is a part of the dashboard's code that could not be fetched: the service was
 * updated since the page opened (its files have new names), or it is out of reach. Each browser
 * words it its own way; Vite's preload of a part's styles words it too.
 */
/** How often a part or a page whose code could not load asks again on its own, at first. */
export const RETRY_LOAD_MS = 15_000;

export const isLoadFailure = (error: unknown): boolean =>
  error instanceof Error &&
  /dynamically imported module|importing a module script failed|unable to preload css|error loading dynamically imported/i.test(
    error.message,
  );
