// The product's own instance of the client, for its pages' scripted parts (same origin, /api/auth).
import { createAuthClient } from "~/client/react";

export const authClient = createAuthClient();
