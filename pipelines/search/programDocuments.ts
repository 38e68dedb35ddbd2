import { Effect } from "effect"
import { createHash } from "node:crypto"
import type { DatabaseShape } from "../../infra/Database.ts"
import { documentId, type ProgramDocument } from "../../readModel/documents.ts"

/** Every programme as a search document, with the hash that drives the delta. */
export const programDocuments = (db: DatabaseShape) =>
  db
    .query<{
      id: string
      network_id: string
      network_name: string | null
      merchant_id: string
      name: string
      domains: Array<string>
      country: string | null
      category: string | null
      commission_type: string
      commission_rate: number
      commission_currency: string | null
      cookie_days: number | null
      status: string
      deep_link_allowed: boolean
      epc: number | null
    }>(
      `SELECT p.id, p.network_id, n.name AS network_name, p.merchant_id, p.name, p.domains, p.country, p.category,
       p.commission_type, p.commission_rate::DOUBLE AS commission_rate, p.commission_currency, p.cookie_days,
       p.status, p.deep_link_allowed, p.epc::DOUBLE AS epc
     FROM programs p LEFT JOIN networks n ON n.id = p.network_id
     ORDER BY p.id`
    )
    .pipe(
      Effect.map((rows) =>
        rows.map((row) => {
          const document: ProgramDocument = {
            id: documentId(row.id),
            program_id: row.id,
            network_id: row.network_id,
            network_name: row.network_name,
            merchant_id: row.merchant_id,
            name: row.name,
            domains: [...row.domains],
            country: row.country,
            category: row.category,
            commission_type: row.commission_type,
            commission_rate: Number(row.commission_rate),
            commission_currency: row.commission_currency,
            cookie_days: row.cookie_days === null ? null : Number(row.cookie_days),
            status: row.status,
            deep_link_allowed: row.deep_link_allowed,
            epc: row.epc === null ? null : Number(row.epc)
          }
          return { document, hash: createHash("sha1").update(JSON.stringify(document)).digest("hex") }
        })
      )
    )
