/** A price or amount in major units rounded to cents, for display (never for money arithmetic: that is Decimal). */
export const round2 = (value: number) => Math.round(value * 100) / 100
