import { DealDiscovery } from "../../../../ai/deals/DealDiscovery.ts"

// The services behind GET /api/v1/ai/deals (over Database and ProgramMatcher).
export const Services = DealDiscovery.layer
