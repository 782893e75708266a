// Every /api/auth path without a route of its own.
import { AuthError } from "~/auth/errors";
import { errorResponse } from "~/http/endpoint.server";

const notFound = async () => errorResponse(new AuthError("NOT_FOUND"));
export const loader = notFound;
export const action = notFound;
