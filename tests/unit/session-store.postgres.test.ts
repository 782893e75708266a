import { sessionStoreSuite } from "./session-store.suite";

sessionStoreSuite("postgres");
