// A list of names in a sentence ("Design, Ops and Sales"), joined by Intl.ListFormat in the page's language, each
// name shown its own way (user-written names in <bdi>, so a Hebrew team name in an English sentence reads right).
import { Fragment, type ReactNode } from "react";
import { formattingLocale } from "~/i18n/format";
import { useT } from "~/i18n/react";

/** `type`: "conjunction" for "A, B and C", "unit" for items side by side ("admin, member"). */
export function IsolatedList({
  items,
  render,
  type = "conjunction",
}: {
  items: readonly string[];
  render: (item: string, index: number) => ReactNode;
  type?: "conjunction" | "unit";
}) {
  const { lang } = useT();
  // formatToParts keeps which part is which item, so each can be wrapped; the words between stay the language's.
  const parts = new Intl.ListFormat(formattingLocale(lang), { type, style: type === "unit" ? "short" : "long" }).formatToParts(items.map((_, i) => `\u0000${i}\u0000`));
  return (
    <>
      {parts.map((part, i) => {
        const at = /^\u0000(\d+)\u0000$/.exec(part.value);
        return <Fragment key={i}>{part.type === "element" && at ? render(items[Number(at[1])]!, Number(at[1])) : part.value}</Fragment>;
      })}
    </>
  );
}
