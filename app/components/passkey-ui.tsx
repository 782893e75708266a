// Shared by the passkey components: a ceremony run from a button, its outcome shown as every page shows one
// (a refusal in the focused error summary with "Error:" in the title, a confirmation in a focused status),
// errors in words for people (the JSON API keeps the specification's messages), and where to go once a script
// has signed someone in.
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ClientError } from "~/client";
import { ErrorSummary, errorSummaryMessagesId, StatusMessage } from "~/components/forms";
import { REFUSAL_WORDS } from "~/http/refusal-words";
import { useT } from "~/i18n/react";

export interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * A passkey ceremony started by a button. While it runs the button stays focused and says it is busy with
 * `aria-disabled` (a `disabled` button would drop the focus to <body>), and presses are ignored. Its outcome is
 * kept with a count of tries, so the same message after a second try is shown, focused and read again; a form
 * on the same page being submitted clears it (an old outcome must not sit beside, or steal focus from, the new
 * page's own).
 */
export function usePasskeyCeremony(id: string) {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const [outcome, setOutcome] = useState<(Outcome & { tries: number }) | null>(null);
  /** Since a ceremony was last started here, and until a form is submitted: what the page said before is old. */
  const [started, setStarted] = useState(false);
  const tries = useRef(0);
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state !== "submitting") return;
    setOutcome(null);
    setStarted(false);
  }, [navigation.state]);

  const show = (next: Outcome | null) => {
    tries.current += 1;
    setStarted(true);
    setOutcome(next ? { ...next, tries: tries.current } : null);
  };
  /** Runs `ceremony` unless one is running; what it returns (if anything) is shown. */
  const run = async (ceremony: () => Promise<Outcome | null | undefined | void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setStarted(true);
    setOutcome(null);
    try {
      const result = await ceremony();
      if (result) show(result);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  const errorId = `${id}-error-summary`;
  /** Ties a control (or a field the error may be about) to the error's words: `aria-describedby`. */
  const describedBy = outcome && !outcome.ok ? errorSummaryMessagesId(errorId) : undefined;
  /** The props of a button that starts a ceremony: tied to the error it led to. */
  const buttonProps = (onClick: () => void) => ({
    type: "button" as const,
    onClick: () => {
      if (!running.current) onClick();
    },
    "aria-disabled": busy || undefined,
    "aria-describedby": describedBy,
  });
  /** The outcome, as the page shows one: put it where the page's own messages go. */
  const message: ReactNode = outcome ? (
    outcome.ok ? (
      <StatusMessage id={`${id}-status`} focusKey={outcome.tries}>
        <Said text={outcome.text} />
      </StatusMessage>
    ) : (
      <ErrorSummary key={outcome.tries} id={errorId} errors={[outcome.text]} />
    )
  ) : null;
  return { busy, started, run, show, buttonProps, message, outcome, describedBy };
}

export function describePasskeyError(error: ClientError): string {
  switch (error.code) {
    case "AUTH_CANCELLED":
      return "Signing in with a passkey was cancelled or did not work. Try again, or use your password.";
    case "REGISTRATION_CANCELLED":
      return "Creating the passkey was cancelled or did not work. Try again.";
    case "PREVIOUSLY_REGISTERED":
      return "This passkey is already registered.";
    case "CHALLENGE_NOT_FOUND":
      return "That took too long or was started in another tab. Try again.";
    case "INVALID_CODE":
      return "That code is not right, or it has expired. Check the email, or ask for a new code.";
    case "USER_ALREADY_EXISTS":
      return "This address already has an account. Sign in instead.";
    case "TOO_MANY_REQUESTS":
      return "Too many attempts. Wait a moment and try again.";
    case "NETWORK_ERROR":
      return "We could not reach the server. Check your connection and try again.";
    case "PASSKEY_NOT_FOUND":
    case "BANNED_USER":
    case "SESSION_IS_NOT_FRESH":
    case "UNAUTHORIZED":
      return REFUSAL_WORDS[error.code];
    default:
      return error.message && error.source === "server" ? error.message : "Something went wrong with the passkey. Try again.";
  }
}

/** After a script signed someone in: GET /continue judges the redirect target on the server. */
export const continueTo = (target: string | null | undefined) => `/continue${target ? `?to=${encodeURIComponent(target)}` : ""}`;

/** A sentence the code wrote in English, in the page's language (app/i18n/said.ts). */
function Said({ text }: { text: string }) {
  return <>{useT().said(text)}</>;
}
