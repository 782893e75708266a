// Issue 44: the admin pages in every language (tests/e2e/every-language/check.ts says what is checked).
import { describeEveryLanguage } from "./every-language/check";
import { adminPages } from "./every-language/admin";

describeEveryLanguage("admin", adminPages);
