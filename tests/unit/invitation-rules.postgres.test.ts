import { invitationRulesSuite } from "./invitation-rules.suite";

invitationRulesSuite("postgres");
