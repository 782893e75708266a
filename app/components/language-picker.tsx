// The language picker at the foot of every page, error pages too (issue 44): a plain form post to /language, so
// it works without JavaScript and comes back to this same page; each language is named in itself, with its lang.
import { useLocation } from "@remix-run/react";
import { useRef } from "react";
import { usePageLanguage, useT } from "~/i18n/react";

export function LanguagePicker() {
  const { lang, offered } = usePageLanguage();
  const { t } = useT();
  const location = useLocation();
  // With JavaScript, a language picked with the pointer is applied at once. Not one reached with the keyboard: arrow
  // keys change a closed select's value one language at a time, and a page that reloaded at each would be a trap
  // (WCAG 3.2.2, "On Input"); the button applies it, as it does without JavaScript.
  const pickedWithPointer = useRef(false);
  if (offered.length < 2) return null;
  return (
    // A whole-document post (not a Remix fetch): the next page, and everything after it, comes in the new language.
    <form method="post" action="/language" className="language-picker" data-testid="language-picker">
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label htmlFor="language-picker-select">{t("picker.label")}</label>
      <select
        id="language-picker-select"
        name="lang"
        defaultValue={lang}
        onPointerDown={() => (pickedWithPointer.current = true)}
        onKeyDown={() => (pickedWithPointer.current = false)}
        onChange={(event) => {
          if (pickedWithPointer.current) event.currentTarget.form?.requestSubmit();
        }}
      >
        {offered.map((language) => (
          <option key={language.tag} value={language.tag} lang={language.tag} dir={language.dir}>
            {language.name}
          </option>
        ))}
      </select>
      <button type="submit" className="secondary small">
        {t("picker.submit")}
      </button>
    </form>
  );
}
