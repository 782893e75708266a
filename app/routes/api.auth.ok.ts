import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({ method: "GET", handler: async () => ({ ok: true }) });
