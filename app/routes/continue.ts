// GET /continue?to=<target>: where a script sends the browser after it signed someone in (a passkey ceremony
// runs in the page, not in a form action), so the redirect target is still judged on the server.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirectTarget } from "~/auth/origin.server";

export function loader({ request }: LoaderFunctionArgs) {
  return redirect(safeRedirectTarget(new URL(request.url).searchParams.get("to")));
}

