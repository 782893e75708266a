import { guessCountingSuite } from "./guess-counting.suite";

guessCountingSuite("sqlite");
