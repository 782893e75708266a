import { requestPasswordResetOtpEndpoint } from "~/http/endpoints/request-password-reset-otp.server";

export const { loader, action } = requestPasswordResetOtpEndpoint;
