// Form building blocks: every field shows its label, its errors next to it, and the accessible wiring
// (aria-invalid, aria-describedby) the same way on every page.
import { getInputProps, useForm, type DefaultValue, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { z } from "zod";

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

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="errors" role="alert">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

type InputType = "text" | "email" | "password" | "url";

export function Field({
  label,
  meta,
  type,
  autoComplete,
}: {
  label: string;
  meta: FieldMetadata<string | undefined | null>;
  type: InputType;
  autoComplete?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input {...getInputProps(meta, { type })} autoComplete={autoComplete} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
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
