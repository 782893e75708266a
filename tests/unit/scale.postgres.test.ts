import { scaleSuite } from "./scale.suite";

scaleSuite("postgres");
