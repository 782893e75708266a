import { requestPasswordResetEndpoint } from "~/http/endpoints/request-password-reset.server";

export const { loader, action } = requestPasswordResetEndpoint;
