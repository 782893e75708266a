import { guessCountingSuite } from "./guess-counting.suite";

guessCountingSuite("postgres");
