import { scaleSuite } from "./scale.suite";

scaleSuite("sqlite");
