// The question of a confirmation step reached by a link (?confirm=…, ?remove=…). Without JavaScript it is a page
// of its own and the browser focuses it (autofocus). With JavaScript the link is a client navigation, where
// autofocus does nothing on a <div> (React moves focus only to form controls): it takes the focus when it mounts,
// and is scrolled so its buttons are on screen too (at 320 px the question can sit below the fold).
import { useEffect, useRef, type ReactNode } from "react";

export function ConfirmQuestion({ labelledBy, className, testId, children }: { labelledBy: string; className?: string; testId?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    // Whole on screen when it fits (its buttons are at its bottom), else from its top.
    element.scrollIntoView({ block: element.offsetHeight <= window.innerHeight ? "center" : "start" });
  }, []);
  return (
    <div ref={ref} className={className} role="group" aria-labelledby={labelledBy} tabIndex={-1} autoFocus data-testid={testId}>
      {children}
    </div>
  );
}
