/**
 * Leaving the dashboard for a page the service answers (the identity provider's sign-out, the
 * sign-in page after it): a whole page load, not a route of the app. One object, so a test can
 * watch where the page would go.
 */
export const pageLoad = {
  assign: (address: string): void => window.location.assign(address),
};
