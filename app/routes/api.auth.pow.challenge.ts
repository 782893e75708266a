// GET /api/auth/pow/challenge: a fresh ALTCHA challenge ahead of a request that will need one (the widget's
// challenge URL, ADR 060). Only while AUTH_POW is on; otherwise there is nothing to solve.
import { AuthError } from "~/auth/errors";
import { createProofChallenge } from "~/auth/proof-of-work/challenge.server";
import { env } from "~/env.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async () => {
    if (env.AUTH_POW === "off") throw new AuthError("NOT_FOUND");
    return createProofChallenge();
  },
});
