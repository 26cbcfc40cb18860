/** Types of system-packages.mjs, for the TypeScript bench and test bed. */
/** Newest PostgreSQL server binaries Debian installed, e.g. /usr/lib/postgresql/15/bin; undefined without them. */
export function postgresBinDir(): string | undefined;
export function ensureSystemPackages(names: string[]): void;
export const SYSTEM_NEEDS: Record<string, { for: string; package: string; present: () => boolean }>;
