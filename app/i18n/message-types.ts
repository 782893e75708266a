// The shapes of a catalog and of a message's values, shared by the formatter and the reader of the code's own
// English sentences (said.ts), which format.ts itself uses.
export type Messages = Readonly<Record<string, string>>;
export type Value = string | number | boolean | Date | null | undefined;
export type Values = Record<string, Value>;
