/** The token of the benchmark service's config. */
export const BENCH_TOKEN = 'bench-token-0123456789abcdef';
