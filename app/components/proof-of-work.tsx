// Proof of work's check on a page (issue 39 §5, ADR 060), shown only under a burst. With JavaScript: the ALTCHA
// widget, loaded from /pow-widget only now (never part of the pages' bundle), which solves a challenge by itself
// and puts its solution in the form's `altcha` field. Without JavaScript nothing can be solved, so the page as
// served says so in plain words (wait until the burst is over, or use another way in); once scripts run, the
// widget takes that text's place. Not <noscript>: its text is not read where scripts are merely blocked.
import { Link } from "@remix-run/react";
import { Fragment, useEffect, useState, type DetailedHTMLProps, type HTMLAttributes, type ReactNode } from "react";
import type { Translator } from "~/i18n/format";
import { useT } from "~/i18n/react";

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

export function waitWords(minutesLeft: number | null, t: Translator["t"]): string {
  if (minutesLeft === null) return t("proofOfWork.waitFew");
  return t("proofOfWork.waitMinutes", { minutes: minutesLeft });
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
  const { t, rich } = useT();
  const ways = { ways: () => <Fragment key="ways">{otherWays}</Fragment> };
  return (
    <div className="proof-of-work" role="group" aria-labelledby="proof-of-work-title">
      <link rel="stylesheet" href={need.widget.stylesheet} />
      <p id="proof-of-work-title">{rich("proofOfWork.title", {}, { strong: (chunks) => <strong key="strong">{chunks}</strong> })}</p>
      {state === "static" ? (
        <p>{rich("proofOfWork.noScript", { wait: waitWords(need.minutesLeft, t) }, ways)}</p>
      ) : null}
      {state === "loading" || state === "ready" ? <p>{t("proofOfWork.running")}</p> : null}
      {state === "ready" ? <altcha-widget key={key} challenge={CHALLENGE_URL} name="altcha" auto="onload" /> : null}
      {state === "failed" ? (
        <p>{rich("proofOfWork.failed", { wait: waitWords(need.minutesLeft, t) }, ways)}</p>
      ) : null}
    </div>
  );
}

/** The sign-in pages' way around the check: a mailed code, or a passkey. */
export function SignInWithoutPuzzle({ redirectTo }: { redirectTo: string | null }) {
  const { rich } = useT();
  const to = `/sign-in/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  return <>{rich("proofOfWork.signInWithout", {}, { link: (chunks) => <Link key="code" to={to}>{chunks}</Link> })}</>;
}
