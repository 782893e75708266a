// The admin pages, in every language (tests/e2e/every-language.spec.ts).
import type { PageInEveryLanguage } from "./pages";

export const adminPages: PageInEveryLanguage[] = [];
