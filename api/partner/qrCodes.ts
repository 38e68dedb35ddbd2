import { Effect } from "effect"
import QRCode from "qrcode"
import { escapeHtml } from "../../discovery/pageShell.ts"

// QR codes of tracking URLs, drawn by the `qrcode` package: inline SVG for
// the dashboard's list, PNG for download (print, slides). Error correction M
// (15% of the code may be damaged or covered) and the standard quiet zone.

const OPTIONS = { errorCorrectionLevel: "M", margin: 4 } as const

/** An inline <svg> of the URL's QR code, announced as an image naming what it encodes. */
export const qrSvg = (url: string, label: string) =>
  Effect.map(
    Effect.promise(() => QRCode.toString(url, { ...OPTIONS, type: "svg" })),
    (svg) => svg.replace("<svg ", `<svg role="img" aria-label="QR code of ${escapeHtml(label)}" `)
  )

/** A PNG of the URL's QR code, 8 pixels per module. */
export const qrPng = (url: string) => Effect.promise(() => QRCode.toBuffer(url, { ...OPTIONS, type: "png", scale: 8 }))
