import { Effect, Layer } from "effect"
import { hostCandidates } from "../domain/matching/hostCandidates.ts"
import { DatabaseError } from "../infra/Database.ts"
import { CatalogQueries, type NetworkRow, type Page, type ProgramRow } from "./CatalogQueries.ts"

// CatalogQueries over plain arrays, for handler tests that need neither
// DuckDB nor Meilisearch: the same filters, order (name, then id) and paging
// as the SQL; `unavailable` makes every query fail as a lost database would.

const contains = (value: string, q: string) => value.toLowerCase().includes(q.trim().toLowerCase())

const byName = <A extends { readonly name: string; readonly id: string }>(a: A, b: A) =>
  a.name.toLowerCase() < b.name.toLowerCase()
    ? -1
    : a.name.toLowerCase() > b.name.toLowerCase()
      ? 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0

const paged = <A>(rows: ReadonlyArray<A>, page: Page) => ({
  rows: rows.slice(page.offset, page.offset + page.limit),
  total: rows.length
})

export const layerTest = (fixture: {
  readonly networks?: ReadonlyArray<NetworkRow>
  readonly programs?: ReadonlyArray<ProgramRow>
  readonly unavailable?: boolean
}) =>
  Layer.succeed(CatalogQueries, {
    networks: (query, page) =>
      fixture.unavailable === true
        ? Effect.fail(new DatabaseError({ message: "database unavailable (test layer)", cause: null }))
        : Effect.succeed(
            paged(
              (fixture.networks ?? [])
                .filter((n) => query.status === undefined || n.status === query.status)
                .filter(
                  (n) =>
                    query.q === undefined ||
                    query.q.trim() === "" ||
                    contains(n.name, query.q) ||
                    contains(n.id, query.q)
                )
                .toSorted(byName),
              page
            )
          ),
    programs: (query, page) => {
      if (fixture.unavailable === true)
        return Effect.fail(new DatabaseError({ message: "database unavailable (test layer)", cause: null }))
      const host = query.domain
        ?.trim()
        .toLowerCase()
        .replace(/^https?:\/\//, "")
        .replace(/[/:?#].*$/, "")
      const candidates = host === undefined || host === "" ? undefined : hostCandidates(host)
      return Effect.succeed(
        paged(
          (fixture.programs ?? [])
            .filter((p) => query.network === undefined || p.network_id === query.network.toLowerCase())
            .filter((p) => query.status === undefined || p.status === query.status)
            .filter((p) => query.country === undefined || p.country?.toUpperCase() === query.country.toUpperCase())
            .filter(
              (p) =>
                query.q === undefined ||
                query.q.trim() === "" ||
                contains(p.name, query.q) ||
                contains(p.merchant_id, query.q)
            )
            .filter((p) => candidates === undefined || p.domains.some((d) => candidates.includes(d)))
            .toSorted(byName),
          page
        )
      )
    },
    programIdOf: (number) => Effect.succeed((fixture.programs ?? []).find((p) => p.number === number)?.id),
    numberOf: (programId) => Effect.succeed((fixture.programs ?? []).find((p) => p.id === programId)?.number),
    numbersOf: (programIds) =>
      Effect.succeed(
        new Map((fixture.programs ?? []).filter((p) => programIds.includes(p.id)).map((p) => [p.id, p.number]))
      )
  })
