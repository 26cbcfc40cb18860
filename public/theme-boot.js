/*
 * Sets the theme before the first paint, so a dark screen never flashes white while the app
 * loads. A classic script, loaded blocking from <head>: the app itself arrives as deferred
 * modules. Its rules are those of src/web/lib/theme.ts (a test runs both side by side).
 */
(function () {
  var path = location.pathname;
  var asked = new URLSearchParams(location.search).get('theme');
  var fromAddress = asked === 'light' || asked === 'dark' ? asked : undefined;
  if (path === '/wallboard' && !fromAddress) fromAddress = 'dark';
  if (path !== '/wallboard' && path !== '/connect' && path !== '/sign-in') fromAddress = undefined;
  var stored;
  try {
    stored = localStorage.getItem('callboard.theme');
  } catch {
    // Storage can be refused (privacy settings): the system's theme then.
    stored = null;
  }
  var chosen = stored === 'light' || stored === 'dark' ? stored : undefined;
  var theme = fromAddress || chosen || (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.classList.toggle('dark', theme === 'dark');
})();
