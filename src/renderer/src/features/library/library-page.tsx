/** Placeholder until the library feature lands; its owner replaces this file. */
export function LibraryPage() {
  return (
    <section className="page" data-testid="library-page">
      <header className="page__header">
        <h1>Library</h1>
      </header>
      <p className="empty">Coming soon.</p>
    </section>
  );
}
