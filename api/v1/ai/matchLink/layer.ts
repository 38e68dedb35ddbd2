import { FuzzyMatcher } from "../../../../ai/matchLink/FuzzyMatcher.ts"

// The services behind POST /api/v1/ai/match-link (over ProgramMatcher and SearchEngine).
export const Services = FuzzyMatcher.layer
