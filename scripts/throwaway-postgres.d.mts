/** Types of throwaway-postgres.mjs, for the TypeScript test bed. */
export interface ThrowawayPostgres {
  url: string;
  port: number;
  /** Stops the server and removes its files; safe to call more than once. */
  stop(): void;
  /** Stops the server at once (every connection cut) and starts it again on the same port. */
  restart(): void;
}

export function startThrowawayPostgres(options?: { database?: string }): Promise<ThrowawayPostgres>;
