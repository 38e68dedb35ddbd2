// GET /api/search as a well-behaved client does: a 503 (the service's "search
// is unavailable, retry after Retry-After") or a connection reset (a keep-alive
// socket the server closed as the request went out) is tried once more after
// the wait the service asked for. The eval scores relevance, not availability:
// one transient refusal under a loaded machine must not end a run of a few
// hundred queries, and every retry is counted so the run says it happened.

const MAX_WAIT_MS = 5_000

export interface SearchClient {
  readonly get: (url: string) => Promise<{ readonly status: number; readonly body: any }>
  readonly retries: () => number
}

const waitMs = (response: Response) =>
  Math.min(MAX_WAIT_MS, 1000 * (Number(response.headers.get("retry-after") ?? "1") || 1))

const isReset = (error: unknown) =>
  error instanceof TypeError && (error.cause as { code?: string } | undefined)?.code === "ECONNRESET"

export const makeSearchClient = (): SearchClient => {
  let retried = 0
  const once = async (url: string) => {
    const response = await fetch(url)
    const text = await response.text()
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined, wait: waitMs(response) }
  }
  const again = async (url: string, wait: number) => {
    retried++
    await new Promise((resolve) => setTimeout(resolve, wait))
    const { status, body } = await once(url)
    return { status, body }
  }
  return {
    get: async (url) => {
      try {
        const { status, body, wait } = await once(url)
        return status === 503 ? await again(url, wait) : { status, body }
      } catch (error) {
        if (!isReset(error)) throw error
        return again(url, 100)
      }
    },
    retries: () => retried
  }
}
