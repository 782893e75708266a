// Proof of work's check on a page (issue 39 §5, ADR 060), shown only under a burst. With JavaScript: the ALTCHA
// widget, loaded from /pow-widget only now (never part of the pages' bundle), which solves a challenge by itself
// and puts its solution in the form's `altcha` field. Without JavaScript nothing can be solved, so the page as
// served says so in plain words (wait until the burst is over, or use another way in); once scripts run, the
// widget takes that text's place. Not <noscript>: its text is not read where scripts are merely blocked.
import { Link } from "@remix-run/react";
import { useEffect, useState, type DetailedHTMLProps, type HTMLAttributes, type ReactNode } from "react";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- how React's types learn a custom element
  namespace JSX {
    interface IntrinsicElements {
      "altcha-widget": DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & { challenge: string; name: string; auto?: string };
    }
  }
}

export interface ProofOfWorkNeed {
  minutesLeft: number | null;
  widget: { script: string; stylesheet: string; worker: string };
}

const CHALLENGE_URL = "/api/auth/pow/challenge";

let widgetLoaded: Promise<void> | null = null;

/** Loads the widget's module once, then tells it where the worker for our challenges' algorithm is. */
function loadWidget(urls: ProofOfWorkNeed["widget"]): Promise<void> {
  widgetLoaded ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.type = "module";
    script.src = urls.script;
    script.onload = () => {
      const altcha = (globalThis as { $altcha?: { algorithms: Map<string, () => Worker> } }).$altcha;
      altcha?.algorithms.set("PBKDF2/SHA-256", () => new Worker(urls.worker));
      resolve();
    };
    script.onerror = () => {
      widgetLoaded = null;
      reject(new Error("the check could not be loaded"));
    };
    document.head.append(script);
  });
  return widgetLoaded;
}

export function waitWords(minutesLeft: number | null): string {
  if (minutesLeft === null) return "Try again in a few minutes";
  return `Try again in ${minutesLeft} ${minutesLeft === 1 ? "minute" : "minutes"}`;
}

/**
 * The check. `attempt` changes with every answer of the page's action, so each try gets a fresh challenge (a
 * solution is used up by the request that carries it). `otherWays` is the page's own list of ways around it.
 */
export function ProofOfWorkCheck({ need, attempt, otherWays }: { need: ProofOfWorkNeed; attempt: unknown; otherWays: ReactNode }) {
  // "static" is the page as served, and as it stays without JavaScript: it says what to do instead.
  const [state, setState] = useState<"static" | "loading" | "ready" | "failed">("static");
  const [key, setKey] = useState(0);
  useEffect(() => {
    setState("loading");
    loadWidget(need.widget).then(
      () => setState("ready"),
      () => setState("failed"),
    );
  }, [need.widget]);
  useEffect(() => setKey((previous) => previous + 1), [attempt]);
  return (
    <div className="proof-of-work" role="group" aria-labelledby="proof-of-work-title">
      <link rel="stylesheet" href={need.widget.stylesheet} />
      <p id="proof-of-work-title">
        <strong>One more step.</strong> Many attempts have failed here in the last few minutes, so this form asks your browser to solve a
        short puzzle first.
      </p>
      {state === "static" ? (
        <p>
          The puzzle needs JavaScript, which is off in this browser. {waitWords(need.minutesLeft)}, or {otherWays}.
        </p>
      ) : null}
      {state === "loading" || state === "ready" ? <p>It takes a few seconds and runs by itself; then send the form.</p> : null}
      {state === "ready" ? <altcha-widget key={key} challenge={CHALLENGE_URL} name="altcha" auto="onload" /> : null}
      {state === "failed" ? (
        <p>
          The puzzle could not be loaded. {waitWords(need.minutesLeft)}, or {otherWays}.
        </p>
      ) : null}
    </div>
  );
}

/** The sign-in pages' way around the check: a mailed code, or a passkey. */
export function SignInWithoutPuzzle({ redirectTo }: { redirectTo: string | null }) {
  return (
    <>
      sign in another way: <Link to={`/sign-in/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>with a code we email you</Link>, or
      with a passkey from a browser with JavaScript on
    </>
  );
}
