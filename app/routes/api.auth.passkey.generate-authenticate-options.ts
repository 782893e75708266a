import { generateAuthenticateOptions } from "~/auth/passkey/authentication.server";
import { authenticateOptionsBody } from "~/auth/passkey/schemas";
import { endpoint } from "~/http/endpoint.server";

// Better Auth answers both methods: POST with {email?}, GET for autofill.
const post = endpoint({ method: "POST", body: authenticateOptionsBody, handler: ({ body, ctx }) => generateAuthenticateOptions(ctx, body) });
const get = endpoint({ method: "GET", handler: ({ ctx }) => generateAuthenticateOptions(ctx) });

export const loader = get.loader;
export const action = post.action;
