/** Retries `check` (an assertion) every `intervalMs` until it passes; after `timeoutMs` its last failure is thrown. */
export const waitFor = async <A>(
  check: () => A | Promise<A>,
  { timeoutMs = 10_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {}
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
}
