import type { CampaignOptions } from "./campaign.ts"

// How long and with which seed the fuzz test runs. In the suite: the fixed
// seed and one bounded round (well under a minute on two cores). With
// FUZZ_SECONDS (npm run fuzz): rounds until that time is up, a random seed
// unless FUZZ_SEED is given.

/** The suite's seed: the same requests on every run, so a failure reproduces. */
export const SUITE_SEED = 35_2026
/** Per operation in the suite's one round: valid requests, and requests of each mutation kind. */
export const SUITE_PER_OPERATION = { valid: 3, perKind: 1 }

export interface FuzzSettings {
  readonly seed: number
  readonly describe: string
  readonly timeoutMs: number
  readonly campaign: Omit<CampaignOptions, "log">
}

const integer = (name: string): number | undefined => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return undefined
  const value = Number(raw)
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`)
  return value
}

export const fuzzSettings = (): FuzzSettings => {
  const seconds = integer("FUZZ_SECONDS")
  const explicitSeed = integer("FUZZ_SEED")
  const common = { concurrency: integer("FUZZ_CONCURRENCY") ?? 4, batchSize: 50 }
  if (seconds === undefined) {
    const seed = explicitSeed ?? SUITE_SEED
    return {
      seed,
      describe: `fixed run: ${SUITE_PER_OPERATION.valid} valid and ${SUITE_PER_OPERATION.perKind} of each mutation per operation`,
      timeoutMs: 120_000,
      campaign: { ...common, seed, rounds: 1, perOperation: SUITE_PER_OPERATION, mcpRuns: 30 }
    }
  }
  const seed = explicitSeed ?? Math.floor(Math.random() * 2 ** 31)
  return {
    seed,
    describe: `${seconds} s run`,
    // the last round may start just before the deadline
    timeoutMs: seconds * 1000 + 300_000,
    campaign: {
      ...common,
      seed,
      deadline: Date.now() + seconds * 1000,
      perOperation: { valid: 5, perKind: 2 },
      mcpRuns: 60
    }
  }
}
