import { Layer } from "effect"

// The services behind this endpoint (work in progress, issue 6).
export const Services = Layer.empty
