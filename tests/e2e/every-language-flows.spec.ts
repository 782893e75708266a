// Issue 44: the flows pages in every language (tests/e2e/every-language/check.ts says what is checked).
import { describeEveryLanguage } from "./every-language/check";
import { flowsPages } from "./every-language/flows";

describeEveryLanguage("flows", flowsPages);
