import { sessionAnswerFromMemorySuite } from "./session-answer-from-memory.suite";

sessionAnswerFromMemorySuite("sqlite");
