// GET /pow-widget/<file>: the ALTCHA widget's script, stylesheet and worker (ADR 060).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { proofOfWorkAsset } from "~/http/proof-of-work-assets.server";

export function loader({ params }: LoaderFunctionArgs) {
  return proofOfWorkAsset(params.file);
}
