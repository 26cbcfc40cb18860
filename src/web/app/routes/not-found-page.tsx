/** Any unknown address. */
import { Link } from 'react-router';

export const NotFoundPage = () => (
  <main className="mx-auto max-w-lg p-8">
    <h1 className="text-2xl font-semibold">Nothing here</h1>
    <p className="mt-2 text-muted">This address is not part of Callboard.</p>
    <Link className="mt-4 inline-block text-accent underline" to="/">
      Go to the live view
    </Link>
  </main>
);
