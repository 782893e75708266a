// Who is signed in, for the header of a page the root loader did not run for: the site's own 404 (no route
// matched), 405 (a post to a page that takes none) and 413 (a form over the cap), where the error boundary is the
// root's. Without it those pages drop the impersonation banner, its Stop and "Signed in as" (issue 41). The
// server entry reads the session and hands it down here; the page carries it as inert JSON, so the browser
// hydrates the same header.
import { createContext, useContext } from "react";
import type { Viewer } from "~/http/viewer.server";

export const ErrorPageViewerContext = createContext<Viewer | null>(null);

const SCRIPT_ID = "error-page-viewer";

/** On the server, what the entry read; in the browser, what the server wrote into the page (or nobody). */
export function useErrorPageViewer(): Viewer | null {
  const handed = useContext(ErrorPageViewerContext);
  if (handed || typeof document === "undefined") return handed;
  const text = document.getElementById(SCRIPT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Viewer;
  } catch {
    return null;
  }
}

/** The viewer as JSON the browser does not run (type application/json needs no nonce); "<" escaped. */
export function ErrorPageViewerData({ viewer }: { viewer: Viewer }) {
  return <script type="application/json" id={SCRIPT_ID} dangerouslySetInnerHTML={{ __html: JSON.stringify(viewer).replace(/</g, "\\u003c") }} />;
}
