// The process's logger for lines that carry fields (a request's id, who): the server's pino logger when it runs
// under server.mjs (ADR 062), `console` elsewhere (scripts that load the build, unit tests). Plain messages may
// keep using `console`, which the server sends through the same logger.
type Fields = Record<string, unknown>;

export interface Log {
  debug(fields: Fields, message: string): void;
  info(fields: Fields, message: string): void;
  warn(fields: Fields, message: string): void;
  error(fields: Fields, message: string): void;
}

const LOGGER_GLOBAL = Symbol.for("latchkey.logger");

const viaConsole: Log = {
  debug: (fields, message) => console.debug(`[latchkey] ${message}`, fields),
  info: (fields, message) => console.log(`[latchkey] ${message}`, fields),
  warn: (fields, message) => console.warn(`[latchkey] ${message}`, fields),
  error: (fields, message) => console.error(`[latchkey] ${message}`, fields),
};

export const log: Log = (globalThis as { [LOGGER_GLOBAL]?: Log })[LOGGER_GLOBAL] ?? viaConsole;
