// Form building blocks: every field shows its label, its errors next to it, and the accessible wiring
// (aria-invalid, aria-describedby) the same way on every page.
import { getInputProps, useForm, type DefaultValue, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { z } from "zod";
import { useT } from "~/i18n/react";

/**
 * Conform wired to one zod schema, the same one the action parses with: native constraints from the schema,
 * validation on submit (so an error appearing cannot move the button away from a click), then as the user types.
 */
export function useZodForm<S extends z.ZodObject>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | undefined,
  defaultValue?: DefaultValue<z.input<S>>,
) {
  return useForm<z.input<S>, z.output<S>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    defaultValue,
  });
}

/**
 * A field's (or a form's) messages. Never an ARIA live region: the form's `ErrorSummary` is what is announced
 * and focused; these stay next to their field, tied to it by `aria-describedby`.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { said } = useT();
  if (!errors?.length) return null;
  return (
    <div id={id} className="errors">
      {errors.map((error) => (
        <p key={error}>{said(error)}</p>
      ))}
    </div>
  );
}

type InputType = "text" | "email" | "password" | "url";

/** The id of a field's hint, tied to the input by `aria-describedby` alongside its errors. */
const hintId = (fieldId: string) => `${fieldId}-hint`;

export function Field({
  label,
  meta,
  type,
  autoComplete,
  hint,
  afterInput,
  autoFocus,
  inputMode,
}: {
  /** Text, or rich text where the label names an address ("Type <ltr>ada@example.com</ltr> to confirm"). */
  label: ReactNode;
  meta: FieldMetadata<string | undefined | null>;
  type: InputType;
  autoComplete?: string;
  /** Shown before the first try (e.g. "Use at least 8 characters."), and read with the field. */
  hint?: ReactNode;
  /**
   * Something after the input, such as a "Forgot password?" link: after it in the page's order too, so Tab goes
   * from the field's label to the input first.
   */
  afterInput?: ReactNode;
  autoFocus?: boolean;
  /** "numeric" for codes of digits: phones then open the number pad (the server still reads "123 456"). */
  inputMode?: "numeric";
}) {
  const describedBy = [hint ? hintId(meta.id) : null, meta.errors?.length ? meta.errorId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintId(meta.id)} className="hint">
          {hint}
        </p>
      ) : null}
      <input
        {...getInputProps(meta, { type })}
        aria-describedby={describedBy || undefined}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        inputMode={inputMode}
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
      {type === "password" || afterInput ? (
        <div className="after-input">
          {type === "password" ? <PasswordToggle inputId={meta.id} /> : null}
          {afterInput}
        </div>
      ) : null}
    </div>
  );
}

/**
 * "Show password", then "Hide password" once shown (the GOV.UK pattern: the button says what it will do, with no
 * pressed state to contradict its name; a screen reader reads the focused button's new name). Only with
 * JavaScript (it needs a script to switch the input's type), so it is rendered after hydration and never appears
 * as a dead control on a page without scripts. Submitting the form hides the password again (as GOV.UK's does),
 * so the browser handles it as a password and an error page does not come back with it on screen.
 */
function PasswordToggle({ inputId }: { inputId: string }) {
  const { t } = useT();
  const [hydrated, setHydrated] = useState(false);
  const [shown, setShown] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    const form = input?.form;
    if (!input || !form) return;
    const hide = () => {
      input.type = "password";
      setShown(false);
    };
    form.addEventListener("submit", hide);
    return () => form.removeEventListener("submit", hide);
  }, [inputId, hydrated]);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="link-button password-toggle"
      aria-controls={inputId}
      onClick={() => {
        const input = document.getElementById(inputId) as HTMLInputElement | null;
        if (!input) return;
        input.type = shown ? "password" : "text";
        setShown(!shown);
      }}
    >
      {shown ? t("forms.hidePassword") : t("forms.showPassword")}
    </button>
  );
}

export function CheckboxField({ label, meta }: { label: string; meta: FieldMetadata<boolean | undefined> }) {
  return (
    <div className="field checkbox">
      <input {...getInputProps(meta, { type: "checkbox" })} />
      <label htmlFor={meta.id}>{label}</label>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export const ERROR_TITLE_PREFIX = "Error: ";

/** The id of an error summary's messages, for a control the messages are about (`aria-describedby`). */
export const errorSummaryMessagesId = (summaryId: string) => `${summaryId}-messages`;

/**
 * The error summary at the top of a form (the GOV.UK pattern): a heading, then every message, each field's one
 * linking to that field. It takes focus when it appears, so a screen reader reads it and a keyboard user starts
 * from it: without JavaScript through `autofocus` in the returned page, with JavaScript once the server's answer
 * (or the browser's own validation) is shown. While it is shown, the document title starts with "Error: " (the
 * server does the same for a page answered without JavaScript, see `withErrorTitle`).
 */
export function ErrorSummary({
  form,
  errors,
  title,
  id: givenId,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form, whatever its fields
  form?: FormMetadata<any, string[]>;
  /** Messages with no field behind them (e.g. an action's own error), shown first. */
  errors?: Array<string | null | undefined>;
  title?: string;
  /** For a summary with no form behind it on a page that may show another one (ids must stay unique). */
  id?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { t, said } = useT();
  // The page's own "Error: " in its language (the English prefix is also recognised, for pages not yet translated).
  const prefix = t("common.errorPrefix");
  const items: Array<{ message: string; href?: string }> = [];
  for (const message of errors ?? []) if (message) items.push({ message });
  if (form) {
    const fieldset = form.getFieldset() as Record<string, { id: string } | undefined>;
    for (const [name, messages] of Object.entries(form.allErrors ?? {})) {
      const fieldId = name === "" ? undefined : fieldset[name]?.id;
      for (const message of messages ?? []) items.push({ message, href: fieldId ? `#${fieldId}` : undefined });
    }
  }
  const id = givenId ?? `${form?.id ?? "page"}-error-summary`;
  const key = items.map((item) => item.message).join("\n");
  // The same errors coming back from a second try are news too: focus again when a submission settles.
  const navigation = useNavigation();
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") submitted.current = true;
    else if (navigation.state === "idle" && submitted.current) {
      submitted.current = false;
      if (key) ref.current?.focus();
    }
  }, [navigation.state, key]);
  useEffect(() => {
    if (!key) return;
    // After Conform has moved focus to the first invalid field: the summary, which names them all, wins.
    const timer = setTimeout(() => ref.current?.focus(), 0);
    if (!document.title.startsWith(prefix) && !document.title.startsWith(ERROR_TITLE_PREFIX)) document.title = prefix + document.title;
    return () => {
      clearTimeout(timer);
      // Another summary still shown (a page may have two, e.g. a form's and a passkey button's) keeps "Error: ".
      if (document.querySelector(".error-summary")) return;
      if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
      else if (document.title.startsWith(ERROR_TITLE_PREFIX)) document.title = document.title.slice(ERROR_TITLE_PREFIX.length);
    };
  }, [key, form?.status, prefix]);
  if (items.length === 0) return null;
  return (
    <div ref={ref} id={id} className="error-summary" role="group" aria-labelledby={`${id}-title`} tabIndex={-1} autoFocus>
      <h2 id={`${id}-title`}>{title ?? t("forms.thereIsAProblem")}</h2>
      <ul id={errorSummaryMessagesId(id)}>
        {items.map((item, index) => (
          <li key={index}>{item.href ? <a href={item.href}>{said(item.message)}</a> : said(item.message)}</li>
        ))}
      </ul>
    </div>
  );
}

/** A confirmation at the top of a page or form, focused when it appears so the result is in view and read. */
export function StatusMessage({ children, id = "status-message", focusKey }: { children: ReactNode; id?: string; focusKey?: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [focusKey]);
  return (
    <div ref={ref} id={id} className="notice" role="status" tabIndex={-1} autoFocus>
      {children}
    </div>
  );
}

/** A submit button that says it is working while its form is in flight (with JavaScript on). */
export function SubmitButton({
  children,
  name,
  value,
  className,
}: {
  children: ReactNode;
  name?: string;
  value?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button type="submit" name={name} value={value} className={className} aria-disabled={busy || undefined}>
      {children}
    </button>
  );
}
