// The small brand mark beside the name: a key, drawn inline so it costs no request and follows the text colour.
export function BrandMark() {
  return (
    <svg className="brand-mark" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <circle cx="8" cy="12" r="4.5" fill="none" stroke="currentColor" strokeWidth="2.5" />
      <path d="M12.5 12H21M18 12v3.5M21 12v2.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
