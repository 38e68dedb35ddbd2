// node bench/support/bareMeiliProxy.ts PORT MEILI_URL MASTER_KEY BODIES_FILE
//
// The floor of any service in front of Meilisearch, for bench:search: a bare
// node:http server that answers GET /{i} by POSTing the i-th search body of
// BODIES_FILE (a JSON array of strings) to Meilisearch over a keep-alive
// agent and passing the answer through untouched. No parsing, no routing,
// no work: what one HTTP hop in node costs, measured in the same run.
import http from "node:http"
import { readFileSync } from "node:fs"

const [port, meiliUrl, masterKey, bodiesFile] = process.argv.slice(2)
const bodies = JSON.parse(readFileSync(bodiesFile, "utf8")) as Array<string>
const url = new URL(meiliUrl)
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
const headers = bodies.map((body) => ({
  "content-type": "application/json",
  authorization: `Bearer ${masterKey}`,
  "content-length": String(Buffer.byteLength(body))
}))
const uid = process.env.BENCH_INDEX ?? "bench_products"

http
  .createServer((req, res) => {
    const i = Number((req.url ?? "").slice(1)) % bodies.length
    const upstream = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `/indexes/${uid}/search`,
        method: "POST",
        agent,
        headers: headers[i]
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, {
          "content-type": answer.headers["content-type"] ?? "application/json",
          ...(answer.headers["content-length"] ? { "content-length": answer.headers["content-length"] } : {})
        })
        answer.pipe(res)
      }
    )
    upstream.setNoDelay(true)
    upstream.on("error", () => res.writeHead(502).end())
    upstream.end(bodies[i])
  })
  .listen(Number(port), "127.0.0.1", () => process.stdout.write("listening\n"))
