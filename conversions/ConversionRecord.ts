// The record shape is a domain value (the ledger rules in domain/conversions/
// work on it); re-exported here so the report parsers and callers keep their imports.
export * from "../domain/conversions/ConversionRecord.ts"
