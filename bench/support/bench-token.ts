/** The tokens of the benchmark services' configs. */
export const BENCH_TOKEN = 'bench-token-0123456789abcdef';
/** Opens /metrics only. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** Two tenants of one service: one runs reports, the other watches its live list. */
export const HEAVY_TENANT_TOKEN = 'bench-heavy-tenant-token-0123456789';
export const QUIET_TENANT_TOKEN = 'bench-quiet-tenant-token-0123456789';
