import { AnalysisPage } from '../features/analysis/analysis-page';
import { FirmsPage } from '../features/firms/firms-page';
import { LibraryPage } from '../features/library/library-page';
import { SearchPage } from '../features/search/search-page';
import { SettingsPage } from '../features/settings/settings-page';
import { UsagePage } from '../features/usage/usage-page';
import type { PageId } from '../session/pages';

export function PageView({ page }: { page: PageId }) {
  switch (page) {
    case 'search':
      return <SearchPage />;
    case 'firms':
      return <FirmsPage />;
    case 'library':
      return <LibraryPage />;
    case 'analysis':
      return <AnalysisPage />;
    case 'usage':
      return <UsagePage />;
    case 'settings':
      return <SettingsPage />;
  }
}
