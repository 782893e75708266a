import { setPasswordSuite } from "./set-password.suite";

setPasswordSuite("sqlite");
