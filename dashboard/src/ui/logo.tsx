/** The mark: a drop of fuel in the brand colour (inline SVG, so no image request and nothing for the CSP to allow). */
export function Logo() {
  return (
    <svg class="logo" width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
      <rect width="24" height="24" rx="6" fill="#4f6bed" />
      <path d="M12 5c2.6 3.3 4.5 5.8 4.5 8.2A4.5 4.5 0 0 1 12 17.7a4.5 4.5 0 0 1-4.5-4.5C7.5 10.8 9.4 8.3 12 5z" fill="#fff" />
    </svg>
  );
}
