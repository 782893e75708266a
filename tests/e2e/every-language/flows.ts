// The flows pages, in every language (tests/e2e/every-language.spec.ts).
import type { PageInEveryLanguage } from "./pages";

export const flowsPages: PageInEveryLanguage[] = [];
