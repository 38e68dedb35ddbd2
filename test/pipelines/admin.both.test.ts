import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { tempDir } from "../support/TestService.ts"
import { products, startWithFeeds, tsv } from "./support.ts"

// The operator surface over real HTTP: runs, one run with its rejected rows,
// manual ingest (synchronous and background), errors as JSON bodies.
describe("admin pipeline endpoints", () => {
  const files = tempDir("admin-")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  let auth: Record<string, string>
  beforeAll(async () => {
    writeFileSync(join(files.dir, "a.tsv"), tsv([...products(9), { id: "BAD", price: "free" }]))
    writeFileSync(join(files.dir, "big.tsv"), tsv(products(15_000)))
    env = await startWithFeeds([
      {
        name: "alpha",
        kind: "products",
        format: "gmc-tsv",
        location: join(files.dir, "a.tsv"),
        schedule: "0 * * * *",
        options: { store: "A" }
      },
      {
        name: "big",
        kind: "products",
        format: "gmc-tsv",
        location: join(files.dir, "big.tsv"),
        options: { store: "B" }
      }
    ])
    auth = { authorization: `Bearer ${readFileSync(join(env.service.dataDir, "admin-token"), "utf8").trim()}` }
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })
  const url = (path: string) => `${env.service.url}${path}`

  it("requires the admin token", async () => {
    const response = await getJson(url("/admin/runs"))
    expect(response.status).toBe(401)
    expect(response.body.error.code).toBe("unauthorized")
  })

  it("runs a feed synchronously, lists it and shows it with its rejected rows", async () => {
    const ingest = await postJson(url("/admin/ingest"), { feed: "alpha" }, auth)
    expect(ingest.status).toBe(200)
    expect(ingest.body.runs).toEqual([
      expect.objectContaining({
        feed: "alpha",
        status: "succeeded",
        rowsRead: 10,
        rowsLoaded: 9,
        rowsRejected: 1,
        trigger: "manual"
      })
    ])
    const id = ingest.body.runs[0].id
    const list = await getJson(url("/admin/runs?feed=alpha&status=succeeded&limit=5"), auth)
    expect(list.body.runs.map((r: any) => r.id)).toEqual([id])
    const one = await getJson(url(`/admin/runs/${id}`), auth)
    expect(one.body).toMatchObject({
      run: { id, status: "succeeded" },
      progress: null,
      rejected: [{ line: 11, reason: 'price: must look like "15.00 USD"' }]
    })
    const feeds = await getJson(url("/admin/feeds"), auth)
    expect(feeds.body.feeds[0]).toMatchObject({
      name: "alpha",
      schedule: "0 * * * *",
      nextRunAt: expect.stringMatching(/:00:00\.000Z$/),
      lastRun: { id }
    })
  })

  it("starts a run in the background, answers 409 while it runs, and shows its progress", async () => {
    const started = await postJson(url("/admin/ingest"), { feed: "big", wait: false }, auth)
    expect(started.status).toBe(200)
    const [id] = started.body.started
    const busy = await postJson(url("/admin/ingest"), { feed: "big" }, auth)
    expect(busy.status).toBe(409)
    expect(busy.body.error.code).toBe("feed_busy")
    const running = await getJson(url(`/admin/runs/${id}`), auth)
    expect(running.body.run.status).toBe("running")
    expect(running.body.progress).toMatchObject({ phase: expect.stringMatching(/fetch|load|sync/) })
    let run: any
    do {
      await new Promise((resolve) => setTimeout(resolve, 100))
      run = (await getJson(url(`/admin/runs/${id}`), auth)).body.run
    } while (run.status === "running")
    expect(run).toMatchObject({ status: "succeeded", rowsLoaded: 15_000, documentsUpserted: 15_000 })
  })

  it("answers 404 for an unknown feed or run and 400 naming the field for bad input", async () => {
    expect((await postJson(url("/admin/ingest"), { feed: "nope" }, auth)).body.error.code).toBe("feed_not_found")
    expect((await getJson(url("/admin/runs/nope"), auth)).status).toBe(404)
    const badLimit = await getJson(url("/admin/runs?limit=0"), auth)
    expect(badLimit.status).toBe(400)
    expect(JSON.stringify(badLimit.body)).toContain("limit")
    const badFeed = await postJson(url("/admin/ingest"), { feed: "Not A Feed!" }, auth)
    expect(badFeed.status).toBe(400)
    expect(JSON.stringify(badFeed.body)).toContain("feed")
    const badStatus = await getJson(url("/admin/runs?status=done"), auth)
    expect(badStatus.status).toBe(400)
  })
})
