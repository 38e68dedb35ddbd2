// What a row of the conversions table counts as, for every reader that counts
// conversions (partner statistics, the operator summary, the AI deals'
// observed conversion rates, the reconciliation view), so they all agree.
//
// - A row with a negative commission is not a conversion: it is a network's
//   correction of an earlier sale stored as a row of its own (databases
//   loaded before corrections were filed in conversion_corrections hold
//   such rows). Its money still nets in every revenue sum; it counts nowhere.
// - A conversion earns and counts in rates while pending or approved;
//   declined and reversed ones carry zero shares and are counted apart.
// - A correction filed in conversion_corrections has already moved its
//   sale's amounts (conversions/ConversionCorrections.ts): the sale stays one
//   conversion, with its corrected amounts.

/** `alias` is the table alias with its dot ("c."), or "" for none. */
export const isConversionSql = (alias = "") => `${alias}commission >= 0`

/** Pending or approved: the statuses that earn. */
export const earningSql = (alias = "") => `${alias}status IN ('pending', 'approved')`

/** A conversion counted in totals and conversion rates: a conversion of its own, pending or approved. */
export const countedConversionSql = (alias = "") => `(${earningSql(alias)} AND ${isConversionSql(alias)})`

/** A conversion of its own with this status (a literal of STATUSES). */
export const conversionWithStatusSql = (status: "pending" | "approved" | "declined" | "reversed", alias = "") =>
  `(${alias}status = '${status}' AND ${isConversionSql(alias)})`
