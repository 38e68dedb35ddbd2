import type { RunningService } from "./TestService.ts"

const syncs = async (service: RunningService) => {
  const text = await (
    await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
  ).text()
  return Number(/^api_rate_limit_syncs_total (\d+)$/m.exec(text)?.[1] ?? 0)
}

/**
 * Resolves once `service` (a replica on PostgreSQL) finished a rate-limit
 * sync that started after this call: its grants so far are charged to the
 * shared buckets, and it has read their levels back (partners/SyncedBuckets.ts).
 * Read on /metrics, which spends no allowance.
 */
export const rateLimitsSynced = async (service: RunningService) => {
  const before = await syncs(service)
  while ((await syncs(service)) < before + 2) await new Promise((resolve) => setTimeout(resolve, 10))
}
