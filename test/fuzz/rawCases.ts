import type { RawCase } from "./raw.ts"

// The malformed HTTP/1.1 requests of a fuzz run, byte for byte: request lines,
// headers, chunked bodies, lengths, Expect. Each names the documented path it
// aims at (for the documented-status check) when its request line has one.

const H = "Host: 127.0.0.1\r\nConnection: close\r\n"
const match = JSON.stringify({ url: "https://www.example-store.com/p/1" })
const post = (path: string, headers: string, body = "") => `POST ${path} HTTP/1.1\r\n${H}${headers}\r\n${body}`

export const RAW_CASES: ReadonlyArray<RawCase> = [
  { name: "request line: garbage", chunks: ["GARBAGE\r\n\r\n"] },
  { name: "request line: no version", chunks: ["GET /api/deals\r\n\r\n"], mayCloseSilently: true },
  {
    name: "request line: HTTP/9.9",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/9.9\r\n${H}\r\n`]
  },
  { name: "request line: unknown method", chunks: [`FUZZ /api/deals HTTP/1.1\r\n${H}\r\n`] },
  { name: "request line: lower-case method", chunks: [`get /api/deals HTTP/1.1\r\n${H}\r\n`] },
  { name: "request line: NUL in path", chunks: [`GET /api/\u0000deals HTTP/1.1\r\n${H}\r\n`] },
  { name: "request line: spaces in path", chunks: [`GET /api/ deals x HTTP/1.1\r\n${H}\r\n`] },
  {
    name: "request line: raw non-UTF-8 bytes in path",
    chunks: [
      Buffer.concat([
        Buffer.from("GET /search?q="),
        Buffer.from([0xff, 0xc0, 0x80]),
        Buffer.from(` HTTP/1.1\r\n${H}\r\n`)
      ])
    ]
  },
  {
    name: "request line: raw UTF-8 in query",
    method: "GET",
    path: "/api/deals",
    chunks: [Buffer.from(`GET /api/deals?q=\u00e9t\u00e9 HTTP/1.1\r\n${H}\r\n`, "utf8")]
  },
  {
    name: "request line: 100 KB URL",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals?q=${"a".repeat(100_000)} HTTP/1.1\r\n${H}\r\n`]
  },
  {
    name: "request line: absolute form",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET http://evil.example/api/deals HTTP/1.1\r\n${H}\r\n`]
  },
  { name: "request line: asterisk form", chunks: [`OPTIONS * HTTP/1.1\r\n${H}\r\n`] },
  {
    name: "request line: LF line endings",
    method: "GET",
    path: "/api/deals",
    chunks: ["GET /api/deals HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n"]
  },
  {
    name: "headers: one 20 KB header",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}X-Big: ${"b".repeat(20_000)}\r\n\r\n`]
  },
  {
    name: "headers: 2,000 headers",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}${Array.from({ length: 2_000 }, (_, i) => `X-H${i}: v\r\n`).join("")}\r\n`]
  },
  {
    name: "headers: obs-fold",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}X-Folded: a\r\n b\r\n\r\n`]
  },
  {
    name: "headers: NUL in a value",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}X-Nul: a\u0000b\r\n\r\n`]
  },
  {
    name: "headers: space in a name",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}X Bad: a\r\n\r\n`]
  },
  {
    name: "headers: no colon",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}NoColon\r\n\r\n`]
  },
  {
    name: "headers: no Host",
    method: "GET",
    path: "/api/deals",
    chunks: ["GET /api/deals HTTP/1.1\r\nConnection: close\r\n\r\n"]
  },
  {
    name: "headers: two Hosts",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}Host: other.example\r\n\r\n`]
  },
  {
    name: "headers: 8 KB bearer on /api/v1/links",
    method: "GET",
    path: "/api/v1/links",
    chunks: [`GET /api/v1/links HTTP/1.1\r\n${H}Authorization: Bearer ${"k".repeat(8_000)}\r\n\r\n`]
  },
  {
    name: "headers: Accept garbage on a page",
    method: "GET",
    path: "/search",
    chunks: [`GET /search?q=shoes HTTP/1.1\r\n${H}Accept: \u0001\u0002/\u0003\r\n\r\n`]
  },
  {
    name: "chunked: bad chunk size",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        "zz\r\nabc\r\n0\r\n\r\n"
      )
    ]
  },
  {
    name: "chunked: huge chunk size",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        "ffffffffffffffffff\r\nabc\r\n"
      )
    ],
    endAfterWrite: true,
    mayCloseSilently: true
  },
  {
    name: "chunked: chunk longer than declared",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        `2\r\n${match}\r\n0\r\n\r\n`
      )
    ]
  },
  {
    name: "chunked: cut off before the last chunk",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        `${match.length.toString(16)}\r\n${match}\r\n`
      )
    ],
    endAfterWrite: true,
    mayCloseSilently: true
  },
  {
    name: "chunked: NUL in a chunk extension",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        `${match.length.toString(16)};\u0000x\r\n${match}\r\n0\r\n\r\n`
      )
    ]
  },
  {
    name: "chunked: bad trailer",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        `${match.length.toString(16)}\r\n${match}\r\n0\r\nBad Trailer\r\n\r\n`
      )
    ]
  },
  {
    name: "chunked: 300 KB in chunks (over the body limit)",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        `${(300_000).toString(16)}\r\n${"a".repeat(300_000)}\r\n0\r\n\r\n`
      )
    ]
  },
  {
    name: "chunked: with Content-Length too",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: ${match.length}\r\n`,
        `${match.length.toString(16)}\r\n${match}\r\n0\r\n\r\n`
      )
    ]
  },
  {
    name: "transfer-encoding: gzip, chunked",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n",
        `${match.length.toString(16)}\r\n${match}\r\n0\r\n\r\n`
      )
    ]
  },
  {
    name: "transfer-encoding: unknown",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nTransfer-Encoding: fuzz\r\nContent-Length: ${match.length}\r\n`,
        match
      )
    ]
  },
  {
    name: "content-length: negative",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [post("/api/v1/links/match", "Content-Type: application/json\r\nContent-Length: -5\r\n", match)]
  },
  {
    name: "content-length: not a number",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [post("/api/v1/links/match", "Content-Type: application/json\r\nContent-Length: abc\r\n", match)]
  },
  {
    name: "content-length: two different",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nContent-Length: ${match.length}\r\nContent-Length: 3\r\n`,
        match
      )
    ]
  },
  {
    name: "content-length: more than sent, then cut off",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [post("/api/v1/links/match", "Content-Type: application/json\r\nContent-Length: 1000\r\n", match)],
    endAfterWrite: true,
    mayCloseSilently: true
  },
  {
    name: "content-length: 10 MB declared",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [post("/api/v1/links/match", "Content-Type: application/json\r\nContent-Length: 10000000\r\n", match)],
    endAfterWrite: true
  },
  {
    name: "content-length: 10 MB declared on the postback",
    method: "POST",
    path: "/api/v1/conversions/postback",
    chunks: [
      post(
        "/api/v1/conversions/postback",
        "Content-Type: application/json\r\nContent-Length: 10000000\r\nX-Network: awin\r\n",
        "{}"
      )
    ],
    endAfterWrite: true
  },
  {
    name: "expect: 100-continue, body after the 100",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${match.length}\r\n`
      ),
      match
    ],
    pauseMs: 100
  },
  {
    name: "expect: 100-continue, body at once",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${match.length}\r\n`,
        match
      )
    ]
  },
  {
    name: "expect: 100-continue, 10 MB declared",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 10000000\r\n"
      )
    ],
    endAfterWrite: true
  },
  {
    name: "expect: 100-continue on a GET",
    method: "GET",
    path: "/api/deals",
    chunks: [`GET /api/deals HTTP/1.1\r\n${H}Expect: 100-continue\r\n\r\n`]
  },
  {
    name: "expect: unknown expectation",
    method: "POST",
    path: "/api/v1/links/match",
    chunks: [
      post(
        "/api/v1/links/match",
        `Content-Type: application/json\r\nExpect: fuzz-expectation\r\nContent-Length: ${match.length}\r\n`,
        match
      )
    ]
  },
  {
    name: "expect: 100-continue on /mcp",
    method: "POST",
    path: "/mcp",
    chunks: [
      post(
        "/mcp",
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: 2\r\n"
      ),
      "{}"
    ],
    pauseMs: 100
  },
  {
    name: "pipelined: a good request, then garbage",
    method: "GET",
    path: "/health",
    chunks: [`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\r\n\r\n`]
  }
]
