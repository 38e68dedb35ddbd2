// Small fetch helpers for tests over real HTTP. Bodies are `any` on purpose:
// the assertions check their shape.
export interface JsonResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

const read = async (response: Response): Promise<JsonResponse> => {
  const text = await response.text()
  let body: unknown = text
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined
  } catch {
    // not JSON: keep the text so the assertion shows it
  }
  return { status: response.status, headers: response.headers, body }
}

export const getJson = async (url: string, headers: Record<string, string> = {}) =>
  read(await fetch(url, { headers, redirect: "manual" }))

export const postJson = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
  read(
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual"
    })
  )
