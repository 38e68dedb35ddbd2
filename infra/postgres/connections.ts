import { connectPostgres, type Sql } from "./client.ts"

/**
 * The store's connections: `size` postgres.js clients of ONE connection
 * each, every one lent to a single statement or transaction at a time.
 *
 * Not postgres.js's own pool: its pool pipelines statements onto busy
 * connections and gives a connection back the moment its statement ends,
 * both of which let a cancel request hit a statement it was not sent for
 * (postgres/cancellableQuery.ts). Nor its `reserve()`: a reservation that
 * reopens a closed connection is queued twice, and when the reopening fails
 * (a refused connect, or the FATAL error the killed session left behind,
 * which postgres.js replays on the reopened one) the connection is later
 * handed to that failed reservation and never comes back. A one-connection
 * client reopens its connection on its next statement by itself.
 */
export interface Connections {
  /** An idle client, at once if there is one, else the next one given back. */
  readonly take: () => Promise<Sql>
  readonly give: (sql: Sql) => void
  /** Any client, for what runs before the store serves (migrations). */
  readonly first: Sql
  readonly end: () => Promise<void>
}

export const openConnections = (url: string, size: number): Connections => {
  const clients = Array.from({ length: Math.max(1, size) }, () => connectPostgres(url, 1))
  // Last in, first out: under a light load the same few connections serve
  // everything, and the others are never opened (postgres.js connects lazily).
  const idle = [...clients].reverse()
  const waiting: Array<(sql: Sql) => void> = []
  return {
    take: () => {
      const sql = idle.pop()
      return sql !== undefined ? Promise.resolve(sql) : new Promise((resolve) => waiting.push(resolve))
    },
    give: (sql) => {
      const next = waiting.shift()
      if (next !== undefined) next(sql)
      else idle.push(sql)
    },
    first: clients[0],
    end: async () => {
      await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })))
    }
  }
}
