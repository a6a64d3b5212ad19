/** A path the dashboard does not have. */
import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <main className="narrow" id="main">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the overview</Link>.
      </p>
    </main>
  );
}
