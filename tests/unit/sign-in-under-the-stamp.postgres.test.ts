import { signInUnderTheStampSuite } from "./sign-in-under-the-stamp.suite";

signInUnderTheStampSuite("postgres");
