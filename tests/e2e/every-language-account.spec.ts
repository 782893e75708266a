// Issue 44: the account pages in every language (tests/e2e/every-language/check.ts says what is checked).
import { describeEveryLanguage } from "./every-language/check";
import { accountPages } from "./every-language/account";

describeEveryLanguage("account", accountPages);
