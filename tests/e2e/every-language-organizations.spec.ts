// Issue 44: the organizations pages in every language (tests/e2e/every-language/check.ts says what is checked).
import { describeEveryLanguage } from "./every-language/check";
import { organizationsPages } from "./every-language/organizations";

describeEveryLanguage("organizations", organizationsPages);
