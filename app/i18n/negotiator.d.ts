// negotiator 1.1.0 ships no types; this is the part Latchkey calls.
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    languages(available?: string[]): string[];
  }
}
